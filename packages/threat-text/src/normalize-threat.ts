import { refang } from './refang';

export type TThreatKind = 'url' | 'domain' | 'email' | 'phone' | 'ipv4';

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
const DOTS = /[\u3002\uff0e\uff61]/g;

/**
 * The one form a threat value is compared in (duplicates are found by equality of this form, never
 * by likeness): refanged, trimmed; a URL's scheme and host lower-cased, its path kept as written
 * (paths are case-sensitive) without a trailing slash; a domain lower-cased without a trailing dot; an email lower-cased;
 * a phone number as `+` and digits.
 */
export function normalizeThreat(value: string, kind: TThreatKind = kindOfValue(value)): string {
  const plain = refang(value).trim().replace(DOTS, '.');
  switch (kind) {
    case 'email':
      return plain.replace(/^mailto:/i, '').toLowerCase();
    case 'phone':
      return plain.replace(/[^\d+]/g, '');
    case 'domain':
      return plain.toLowerCase().replace(/\.$/, '');
    case 'ipv4':
      return plain;
    case 'url':
      return normalizeUrl(plain);
  }
}

function normalizeUrl(url: string): string {
  const scheme = SCHEME.exec(url);
  const start = scheme ? scheme[0].length : 0;
  let hostEnd = start;
  while (hostEnd < url.length && !'/?#'.includes(url[hostEnd]!)) hostEnd += 1;
  const head = url.slice(0, hostEnd).toLowerCase().replace(/\.$/, '');
  const rest = url.slice(hostEnd);
  // `https://evil.example/login/` and `https://evil.example/login` (the root `/` too) are one
  // page to take down: a path's one trailing slash goes, unless a query or fragment follows it
  const path = /[?#]/.test(rest) ? rest : rest.replace(/\/$/, '');
  return head + path;
}

const E164 = /^\+[1-9]\d{6,14}$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** The kind of a value an agent typed (the Threat field), as the report classifies it. */
export function kindOfValue(value: string): TThreatKind {
  const plain = refang(value).trim().replace(DOTS, '.');
  if (SCHEME.test(plain) || plain.includes('/')) return 'url';
  if (/^(?:mailto:)?[^@\s]+@[^@\s]+$/i.test(plain)) return 'email';
  if (E164.test(plain.replace(/[\s().-]/g, ''))) return 'phone';
  if (IPV4.test(plain)) return 'ipv4';
  return 'domain';
}

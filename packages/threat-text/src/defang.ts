import { COLON, isAsciiLetter, isSchemeUnit } from './char-classes';

// Schemes a browser or mail client acts on without `//`; a threat value starting with one is
// broken like a URL's scheme. Other `word:` starts (a subject "Login: Bank") are left alone.
const SLASHLESS_SCHEMES = new Set(['javascript', 'vbscript', 'data', 'mailto', 'file']);

/**
 * The one defanging rule for an attacker-controlled value (URL, domain, email, IPv4): readable for
 * an analyst, never a live link in a ticket view, mail client or chat tool.
 * - every `scheme://` becomes `scheme[:]//`, and http(s) becomes `hxxp(s)`:
 *   `https://evil.example/a` -> `hxxps[:]//evil[.]example/a`;
 * - a value starting with `javascript:`, `vbscript:`, `data:`, `mailto:` or `file:` gets `[:]`;
 * - every dot (also 。 ． ｡) and every `@` is bracketed: `phisher[@]evil[.]example`,
 *   `203[.]0[.]113[.]7`.
 * Idempotent (a bracketed character stays as it is), trims the value, and runs in linear time.
 */
export function defang(value: string): string {
  return bracketDotsAndAts(neutralSchemes(value.trim()));
}

// One character class with a one-character look on each side: constant work per position, so
// linear (no repetition for the engine to backtrack into).
const LIVE_DOT_OR_AT = /(?<!\[)[.\u3002\uff0e\uff61@](?!\])/g;

function bracketDotsAndAts(text: string): string {
  return text.replace(LIVE_DOT_OR_AT, '[$&]');
}

function neutralSchemes(text: string): string {
  const parts: string[] = [];
  let copied = 0; // text[copied, …) is not in parts yet; no scheme is searched for behind it
  const leadingColon = slashlessSchemeColon(text);
  if (leadingColon !== -1) {
    parts.push(text.slice(0, leadingColon), '[:]');
    copied = leadingColon + 1;
  }
  for (
    let colon = text.indexOf('://', copied);
    colon !== -1;
    colon = text.indexOf('://', colon + 1)
  ) {
    const start = schemeStart(text, colon, copied);
    if (start === colon) continue;
    parts.push(text.slice(copied, start), `${neutralScheme(text.slice(start, colon))}[:]`);
    copied = colon + 1;
  }
  parts.push(text.slice(copied));
  return parts.join('');
}

/** Start of the scheme name ending before text[colon], not before `floor`; `colon` when none. */
export function schemeStart(text: string, colon: number, floor: number): number {
  let start = colon;
  while (start > floor && isSchemeUnit(text.charCodeAt(start - 1))) start -= 1;
  while (start < colon && !isAsciiLetter(text.charCodeAt(start))) start += 1;
  return start;
}

function neutralScheme(scheme: string): string {
  const lower = scheme.toLowerCase();
  return lower === 'http' || lower === 'https' ? `hxxp${lower.slice(4)}` : scheme;
}

function slashlessSchemeColon(text: string): number {
  let end = 0;
  while (end < text.length && isSchemeUnit(text.charCodeAt(end))) end += 1;
  if (text.charCodeAt(end) !== COLON || end === 0) return -1;
  return SLASHLESS_SCHEMES.has(text.slice(0, end).toLowerCase()) ? end : -1;
}

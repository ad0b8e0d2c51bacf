import { isIPv4 } from 'node:net';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const E164 = /^\+[1-9]\d{1,14}$/;
// Checked on the URL parser's ASCII hostname, so an internationalised name (пример.рф) arrives as
// xn-- labels and its top-level domain (xn--p1ai) is a valid last label.
const HOSTNAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/i;

export const isEmail = (v: string) => EMAIL.test(v);
export const isE164Phone = (v: string) => E164.test(v);
export const isIpv4 = (v: string) => isIPv4(v);

const SOCIAL_HOSTS = [
  'facebook.com',
  'instagram.com',
  'x.com',
  'twitter.com',
  'linkedin.com',
  'tiktok.com',
  'youtube.com',
];

export interface ClassifiedTarget {
  incidentType: 'domain' | 'social';
  subject: string;
  url?: string;
  domain?: string;
}

/** Reads a reported URL or bare domain the way the service stores it; undefined when it is neither. */
export function classifyUrl(raw: string): ClassifiedTarget | undefined {
  const value = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return undefined;
  }
  if (!['http:', 'https:'].includes(parsed.protocol)) return undefined;
  if (!HOSTNAME.test(parsed.hostname) && !isIPv4(parsed.hostname)) return undefined;
  // "name@host" without a scheme is an email address, not a domain
  if (withScheme !== value && (parsed.username || parsed.password)) return undefined;
  const host = parsed.hostname.toLowerCase();
  const bare = host.replace(/^www\./, '');
  if (SOCIAL_HOSTS.includes(bare))
    return { incidentType: 'social', subject: parsed.href, url: parsed.href };
  const isBareDomain =
    parsed.pathname === '/' && !parsed.search && !parsed.hash && !/^[a-z]+:\/\/.+\/$/i.test(value);
  if (isBareDomain) return { incidentType: 'domain', subject: host, domain: host };
  return { incidentType: 'domain', subject: parsed.href, url: parsed.href, domain: host };
}

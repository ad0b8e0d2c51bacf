// Threats named in a ticket's conversation: URLs (defanged ones too), domains, email
// addresses, E.164 phone numbers and IPv4 addresses, each once (by its normalised value) with every
// place it was seen. One pass per text with the scanners' character classes, so linear in the
// text's length whatever its shape; the only regular expression (refang) has fixed alternatives.
import { AT, COLON, SLASH, isDigitUnit, isDotUnit, isLabelUnit, isSpaceUnit } from './char-classes';
import { defang, schemeStart } from './defang';
import { isHostName, withinDnsLimits } from './host-name';
import { normalizeThreat, type TThreatKind } from './normalize-threat';
import { refang } from './refang';

export interface ThreatSourceComment {
  /** The comment's id in Zendesk. */
  id: number;
  /** Plain text of the comment. */
  body: string;
  public: boolean;
  /** Who wrote it, as the caller labels it (e.g. `end-user`, `agent`). */
  author: string;
  /** The author's signature, which Zendesk appends to agents' comments: never read for threats. */
  signature?: string | null;
}

export interface ThreatSource {
  subject?: string | null;
  /** Oldest first: `index` 0 is the ticket's description. */
  comments: readonly ThreatSourceComment[];
}

export interface ExtractThreatsOptions {
  /**
   * Hosts that are never threats: the account's own (`acme.zendesk.com`), the product's; `*.x.y`
   * also matches `x.y`. Zendesk's own hosts are always included.
   */
  ownHosts?: readonly string[];
  /** Addresses that are never threats (the agents', the support address). */
  ownEmails?: readonly string[];
  /** A comment starting with this marker is one of the product's own notes and is skipped. */
  noteMarker?: string;
  /** At most this many threats (first seen first). Default 100. */
  maxThreats?: number;
}

export type TThreatPlace =
  | { in: 'subject' }
  | { in: 'comment'; commentId: number; index: number; public: boolean; author: string };

export interface FoundThreat {
  /** The normalised, refanged value: what goes into the Threat field and what duplicates compare. */
  value: string;
  kind: TThreatKind;
  /** `defang(value)`: the only form shown to a person. */
  display: string;
  seenIn: TThreatPlace[];
}

export const ZENDESK_OWN_HOSTS = ['*.zendesk.com', '*.zdusercontent.com', '*.zdassets.com'];
const MAX_PLACES = 20;
const MAX_URL_LENGTH = 2048;

// Words that turn a following dotted quad into a version number, not an address.
const VERSION_WORDS = new Set(['version', 'v', 'ver', 'build', 'release', 'firmware']);
// A bare `name.ext` with one of these is a file an end user mentions, not a domain (a URL with a
// scheme or a path is still read, `.zip` domains included).
const FILE_EXTENSIONS = new Set(
  (
    'pdf doc docx xls xlsx xlsm ppt pptx txt csv rtf odt png jpg jpeg gif bmp tif tiff webp heic ' +
    'svg zip rar 7z gz tgz tar iso exe msi dmg apk html htm eml msg ics vcf mp3 mp4 mov avi wav ' +
    'js json xml log'
  ).split(' '),
);

interface Found {
  value: string;
  kind: TThreatKind;
}

export function extractThreats(
  source: ThreatSource,
  options: ExtractThreatsOptions = {},
): FoundThreat[] {
  const own = ownMatcher(options);
  const maxThreats = options.maxThreats ?? 100;
  const byValue = new Map<string, FoundThreat>();
  const add = (found: Found, place: TThreatPlace) => {
    if (own.isOwn(found)) return;
    const key = `${found.kind}:${found.value}`;
    let threat = byValue.get(key);
    if (!threat) {
      if (byValue.size >= maxThreats) return;
      threat = { ...found, display: defang(found.value), seenIn: [] };
      byValue.set(key, threat);
    }
    if (threat.seenIn.length < MAX_PLACES && !threat.seenIn.some((p) => samePlace(p, place)))
      threat.seenIn.push(place);
  };

  if (source.subject)
    for (const found of threatsInText(source.subject)) add(found, { in: 'subject' });
  source.comments.forEach((comment, index) => {
    const body = comment.body.trim();
    if (options.noteMarker && body.startsWith(options.noteMarker)) return;
    const place: TThreatPlace = {
      in: 'comment',
      commentId: comment.id,
      index,
      public: comment.public,
      author: comment.author,
    };
    for (const found of threatsInText(withoutSignature(body, comment.signature))) add(found, place);
  });
  return [...byValue.values()];
}

function samePlace(a: TThreatPlace, b: TThreatPlace): boolean {
  return (
    a.in === b.in && (a.in === 'subject' || a.commentId === (b as { commentId: number }).commentId)
  );
}

// The signature is the agent's own short text, never the attacker's.
function withoutSignature(body: string, signature: string | null | undefined): string {
  const trimmed = signature?.trim();
  if (!trimmed) return body;
  const at = body.lastIndexOf(trimmed);
  return at === -1 ? body : body.slice(0, at) + body.slice(at + trimmed.length);
}

function ownMatcher(options: ExtractThreatsOptions) {
  const patterns = [...ZENDESK_OWN_HOSTS, ...(options.ownHosts ?? [])].map((p) =>
    p.trim().toLowerCase(),
  );
  const emails = new Set((options.ownEmails ?? []).map((e) => e.trim().toLowerCase()));
  const ownHost = (host: string) =>
    patterns.some((pattern) =>
      pattern.startsWith('*.')
        ? host === pattern.slice(2) || host.endsWith(pattern.slice(1))
        : host === pattern,
    );
  return {
    isOwn(found: Found): boolean {
      if (found.kind === 'email')
        return emails.has(found.value) || ownHost(found.value.slice(found.value.indexOf('@') + 1));
      if (found.kind === 'domain') return ownHost(found.value);
      if (found.kind === 'url') return ownHost(hostOfUrl(found.value));
      return false;
    },
  };
}

function hostOfUrl(url: string): string {
  const afterScheme = url.indexOf('://');
  let start = afterScheme === -1 ? 0 : afterScheme + 3;
  let end = start;
  while (end < url.length && !'/?#'.includes(url[end]!)) end += 1;
  const authority = url.slice(start, end);
  const userInfoEnd = authority.lastIndexOf('@');
  start = userInfoEnd + 1;
  const hostPort = authority.slice(start);
  const port = hostPort.lastIndexOf(':');
  return (port === -1 ? hostPort : hostPort.slice(0, port)).toLowerCase();
}

/** The threats of one text, in order of appearance (duplicates included). */
function threatsInText(raw: string): Found[] {
  const text = refang(raw);
  const found: Found[] = [];
  phoneNumbersIn(text, found);
  let previousWord = '';
  let i = 0;
  while (i < text.length) {
    if (isSpaceUnit(text.charCodeAt(i))) {
      i += 1;
      continue;
    }
    let end = i;
    while (end < text.length && !isSpaceUnit(text.charCodeAt(end))) end += 1;
    threatsInWord(text, i, end, previousWord, found);
    previousWord =
      end - i <= 12
        ? text
            .slice(i, end)
            .toLowerCase()
            .replace(/^\W+|\W+$/g, '')
        : '';
    i = end;
  }
  return found;
}

// --- phone numbers: `+` and 8 to 15 digits (E.164), separators allowed between digits ---

const PLUS = 0x2b;
const PHONE_SEPARATORS = new Set([0x20, 0x2d, 0x2e, 0x28, 0x29]);

function phoneNumbersIn(text: string, found: Found[]): void {
  for (let plus = text.indexOf('+'); plus !== -1; plus = text.indexOf('+', plus + 1)) {
    const before = plus === 0 ? 0x20 : text.charCodeAt(plus - 1);
    if (isLabelUnit(before) || before === PLUS) continue;
    let digits = '';
    let i = plus + 1;
    let separators = 0; // in a row: `+1 (415) 555-0123` has ` (` and `) `
    let digitsEnd = i;
    // bounded: at most 15 digits and two separators between two of them
    while (i < text.length && digits.length <= 15) {
      const code = text.charCodeAt(i);
      if (isDigitUnit(code)) {
        digits += text[i];
        separators = 0;
        digitsEnd = i + 1;
      } else if (PHONE_SEPARATORS.has(code) && separators < 2 && digits.length > 0) {
        separators += 1;
      } else break;
      i += 1;
    }
    const next = digitsEnd < text.length ? text.charCodeAt(digitsEnd) : 0x20;
    if (digits.length > 15 || isLabelUnit(next) || digits.startsWith('0')) continue;
    if (digits.length >= 8) found.push({ kind: 'phone', value: `+${digits}` });
  }
}

// --- URLs, hosts, emails: one whitespace-separated word at a time ---

const TRAILING_PUNCTUATION = new Set([...'.,;:!?\'")]}>*`’”']);

function trimTrailing(text: string, start: number, end: number): number {
  while (end > start && TRAILING_PUNCTUATION.has(text[end - 1]!)) end -= 1;
  return end;
}

function threatsInWord(
  text: string,
  start: number,
  end: number,
  previousWord: string,
  found: Found[],
): void {
  const url = firstWebUrl(text, start, end);
  hostsIn(text, start, url === null ? end : url, end, previousWord, found);
  if (url === null) return;
  const urlEnd = trimTrailing(text, url, end);
  if (urlEnd - url > MAX_URL_LENGTH) return;
  const value = text.slice(url, urlEnd);
  const host = hostOfUrl(value);
  if (host && withinDnsLimits(host, 0, host.length) && isHostName(host, 0, host.length))
    found.push({ kind: 'url', value: normalizeThreat(value, 'url') });
}

const WEB_SCHEMES = new Set(['http', 'https']);

/** Where the first `http(s)://` of text[start, end) begins, or null. */
function firstWebUrl(text: string, start: number, end: number): number | null {
  for (let i = start; i + 2 < end; i++) {
    if (
      text.charCodeAt(i) !== COLON ||
      text.charCodeAt(i + 1) !== SLASH ||
      text.charCodeAt(i + 2) !== SLASH
    )
      continue;
    const scheme = schemeStart(text, i, start);
    if (WEB_SCHEMES.has(text.slice(scheme, i).toLowerCase())) return scheme;
  }
  return null;
}

function isRunUnit(code: number): boolean {
  return isLabelUnit(code) || isDotUnit(code) || code === AT;
}

/** Bare hosts, emails and `host/path` URLs in text[start, stop) of a word ending at wordEnd. */
function hostsIn(
  text: string,
  start: number,
  stop: number,
  wordEnd: number,
  previousWord: string,
  found: Found[],
): void {
  let i = start;
  while (i < stop) {
    if (!isRunUnit(text.charCodeAt(i))) {
      i += 1;
      continue;
    }
    const runStart = i;
    while (i < stop && isRunUnit(text.charCodeAt(i))) i += 1;
    let first = runStart;
    while (first < i && isDotUnit(text.charCodeAt(first))) first += 1;
    let last = i;
    while (last > first && isDotUnit(text.charCodeAt(last - 1))) last -= 1;
    if (first === last) continue;
    const atCount = countAts(text, first, last);
    if (atCount > 0) {
      if (atCount === 1) emailIn(text, first, last, found);
      continue;
    }
    if (!withinDnsLimits(text, first, last) || !isHostName(text, first, last)) continue;
    const host = text.slice(first, last);
    if (isDottedQuad(host)) {
      if (!VERSION_WORDS.has(previousWord)) found.push({ kind: 'ipv4', value: host });
      continue;
    }
    const next = text.charCodeAt(i);
    if (last === i && next === SLASH && i < stop && stop === wordEnd) {
      const urlEnd = trimTrailing(text, first, wordEnd);
      if (urlEnd - first <= MAX_URL_LENGTH)
        found.push({ kind: 'url', value: normalizeThreat(text.slice(first, urlEnd), 'url') });
      return;
    }
    if (looksLikeDomain(host))
      found.push({ kind: 'domain', value: normalizeThreat(host, 'domain') });
  }
}

function countAts(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) if (text.charCodeAt(i) === AT) count += 1;
  return count;
}

function emailIn(text: string, start: number, end: number, found: Found[]): void {
  const at = text.indexOf('@', start);
  let localStart = start;
  while (localStart < at && !isLabelUnit(text.charCodeAt(localStart))) localStart += 1;
  if (localStart === at || at + 1 >= end) return;
  if (!isHostName(text, at + 1, end)) return;
  // `+tag` local parts: the run stops at `+`, so the part before it is joined back
  let tagStart = localStart;
  while (tagStart > 0 && isEmailLocalUnit(text.charCodeAt(tagStart - 1))) tagStart -= 1;
  found.push({ kind: 'email', value: normalizeThreat(text.slice(tagStart, end), 'email') });
}

function isEmailLocalUnit(code: number): boolean {
  return isLabelUnit(code) || isDotUnit(code) || code === PLUS;
}

function isDottedQuad(host: string): boolean {
  for (let i = 0; i < host.length; i++) {
    const code = host.charCodeAt(i);
    if (!isDigitUnit(code) && !isDotUnit(code)) return false;
  }
  return true;
}

/** Not a file name (`invoice.pdf`) nor two sentences run together (`Done.Next`). */
function looksLikeDomain(host: string): boolean {
  const dot = Math.max(
    host.lastIndexOf('.'),
    host.lastIndexOf('\u3002'),
    host.lastIndexOf('\uff0e'),
    host.lastIndexOf('\uff61'),
  );
  const tld = host.slice(dot + 1);
  if (FILE_EXTENSIONS.has(tld.toLowerCase())) return false;
  const capitalised = /^[A-Z][a-z]+$/.test(tld);
  return !capitalised;
}

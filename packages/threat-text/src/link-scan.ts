import { AT, COLON, SLASH, isDotUnit, isLabelUnit, isSpaceUnit } from './char-classes';
import { defang, schemeStart } from './defang';
import { isHostName } from './host-name';

/**
 * Defangs the link-like tokens of free text (analyst messages, action reasons, page titles) with
 * the rule of `defang`, and leaves the rest as it is, so ordinary sentences keep their full stops:
 * - `scheme://…` up to the next whitespace;
 * - a host name: a domain (any script, the dots 。 ． ｡ too, punycode) or an IPv4 address, with the
 *   rest of its word when a `/` or `:` follows it (a path, a port);
 * - an email address, or any `@` joined to a host.
 * A hand-written tokenizer, linear in the text's length whatever its shape: each character is
 * looked at a bounded number of times (regular expressions with nested or adjacent repetition
 * backtrack quadratically on inputs such as `a.` repeated).
 */
export function defangLinksIn(text: string): string {
  const parts: string[] = [];
  let i = 0;
  while (i < text.length) {
    let end = i;
    while (end < text.length && isSpaceUnit(text.charCodeAt(end))) end += 1;
    if (end === i) {
      while (end < text.length && !isSpaceUnit(text.charCodeAt(end))) end += 1;
      defangWord(text, i, end, parts);
    } else {
      parts.push(text.slice(i, end));
    }
    i = end;
  }
  return parts.join('');
}

function defangWord(text: string, start: number, end: number, parts: string[]): void {
  const url = firstSchemeUrl(text, start, end);
  defangBareHosts(text, start, url, parts);
  if (url < end) parts.push(defang(text.slice(url, end)));
}

/** Where the first `scheme://` of text[start, end) begins; `end` when there is none. */
function firstSchemeUrl(text: string, start: number, end: number): number {
  for (let i = start; i + 2 < end; i++) {
    if (
      text.charCodeAt(i) === COLON &&
      text.charCodeAt(i + 1) === SLASH &&
      text.charCodeAt(i + 2) === SLASH
    ) {
      const scheme = schemeStart(text, i, start);
      if (scheme < i) return scheme;
    }
  }
  return end;
}

// A run: label characters, dots and `@`, the characters a host name or an email address is made of.
function isRunUnit(code: number): boolean {
  return isLabelUnit(code) || isDotUnit(code) || code === AT;
}

/** Pushes text[start, end) with each host name, email address or host with a path defanged. */
function defangBareHosts(text: string, start: number, end: number, parts: string[]): void {
  let copied = start;
  let i = start;
  while (i < end) {
    if (!isRunUnit(text.charCodeAt(i))) {
      i += 1;
      continue;
    }
    const runStart = i;
    while (i < end && isRunUnit(text.charCodeAt(i))) i += 1;
    const runEnd = i;
    // dots around a run are punctuation: "see evil.example." ends a sentence
    let first = runStart;
    while (first < runEnd && isDotUnit(text.charCodeAt(first))) first += 1;
    let last = runEnd;
    while (last > first && isDotUnit(text.charCodeAt(last - 1))) last -= 1;
    if (first === last || !namesHost(text, first, last)) continue;
    const next = text.charCodeAt(runEnd);
    const tokenEnd = last === runEnd && (next === SLASH || next === COLON) ? end : last;
    parts.push(text.slice(copied, first), defang(text.slice(first, tokenEnd)));
    copied = tokenEnd;
    i = Math.max(i, tokenEnd);
  }
  parts.push(text.slice(copied, end));
}

/** Whether one of the `@`-separated parts of text[start, end) is a host name. */
function namesHost(text: string, start: number, end: number): boolean {
  let partStart = start;
  for (let i = start; i <= end; i++) {
    if (i < end && text.charCodeAt(i) !== AT) continue;
    let first = partStart;
    while (first < i && isDotUnit(text.charCodeAt(first))) first += 1;
    let last = i;
    while (last > first && isDotUnit(text.charCodeAt(last - 1))) last -= 1;
    if (first < last && isHostName(text, first, last)) return true;
    partStart = i + 1;
  }
  return false;
}

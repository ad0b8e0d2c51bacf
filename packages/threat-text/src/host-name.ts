import { isDigitUnit, isDotUnit, isLetterUnit } from './char-classes';

/**
 * Whether text[start, end) (label characters and dots only) names a host: an IPv4 address (four
 * numbers 0-255) or a domain whose top-level label is two or more letters of any script (`com`,
 * `рф`) or an IDNA A-label (`xn--p1ai`). `1.2`, `e.g` and `Done` are not hosts; `Done.Next` is.
 * One pass over the range.
 */
export function isHostName(text: string, start: number, end: number): boolean {
  let labels = 0;
  let octets = 0;
  let labelStart = start;
  for (let i = start; i <= end; i++) {
    if (i < end && !isDotUnit(text.charCodeAt(i))) continue;
    if (i === labelStart) return false; // an empty label: `a..b`, or a leading or trailing dot
    labels += 1;
    if (isOctet(text, labelStart, i)) octets += 1;
    if (i === end)
      return (labels === 4 && octets === 4) || (labels >= 2 && isTopLevel(text, labelStart, i));
    labelStart = i + 1;
  }
  return false;
}

function isOctet(text: string, start: number, end: number): boolean {
  if (end - start > 3) return false;
  let value = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (!isDigitUnit(code)) return false;
    value = value * 10 + (code - 0x30);
  }
  return value <= 255;
}

function isTopLevel(text: string, start: number, end: number): boolean {
  if (end - start > 4 && text.slice(start, start + 4).toLowerCase() === 'xn--') return true;
  if (end - start < 2) return false;
  for (let i = start; i < end; i++) if (!isLetterUnit(text.charCodeAt(i))) return false;
  return true;
}

/** RFC 1035: a name of at most 253 characters, each label at most 63. Longer is no host anyone reaches. */
export function withinDnsLimits(text: string, start: number, end: number): boolean {
  if (end - start > 253) return false;
  let labelStart = start;
  for (let i = start; i <= end; i++) {
    if (i < end && !isDotUnit(text.charCodeAt(i))) continue;
    if (i - labelStart > 63) return false;
    labelStart = i + 1;
  }
  return true;
}

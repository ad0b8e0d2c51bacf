// Character classes of the threat-text scanners, by UTF-16 code unit. Every scanner in this package
// walks its input once and asks these questions in constant time, which is what keeps them linear.

export const COLON = 0x3a;
export const SLASH = 0x2f;
export const AT = 0x40;

/** `.` and the dots a browser also reads as one in a host name: 。 ． ｡ (IDNA maps them to `.`). */
export function isDotUnit(code: number): boolean {
  return code === 0x2e || code === 0x3002 || code === 0xff0e || code === 0xff61;
}

/** JavaScript's `\s` (and what String.prototype.trim removes). */
export function isSpaceUnit(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

export function isAsciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

function isAsciiDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Characters of a URL scheme name after its first letter: letters, digits, `+`, `-`, `.`. */
export function isSchemeUnit(code: number): boolean {
  return (
    isAsciiLetter(code) || isAsciiDigit(code) || code === 0x2b || code === 0x2d || code === 0x2e
  );
}

// Non-ASCII answers are computed once per code unit and kept: a megabyte of Cyrillic costs one
// regular-expression test per distinct character, not per character.
const UNKNOWN = 0;
const YES = 1;
const NO = 2;
const labelCache = new Uint8Array(0x10000);
const letterCache = new Uint8Array(0x10000);
// Letters, digits and marks of any script, and the invisible format characters (zero-width joiners,
// soft hyphen) that IDNA drops, so a host split by one is still a host.
const NON_ASCII_LABEL = /[\p{L}\p{N}\p{M}\p{Cf}]/u;
const NON_ASCII_LETTER = /[\p{L}\p{M}]/u;

function cached(cache: Uint8Array, pattern: RegExp, code: number): boolean {
  let known = cache[code];
  if (known === UNKNOWN) {
    known = pattern.test(String.fromCharCode(code)) ? YES : NO;
    cache[code] = known;
  }
  return known === YES;
}

/** A character that may be part of a host-name label: letters and digits of any script, `-`, `_`. */
export function isLabelUnit(code: number): boolean {
  if (code < 0x80)
    return isAsciiLetter(code) || isAsciiDigit(code) || code === 0x2d || code === 0x5f;
  // half of a character outside the BMP (an emoji domain, a rare script): part of the token
  if (code >= 0xd800 && code <= 0xdfff) return true;
  if (isDotUnit(code) || isSpaceUnit(code)) return false;
  return cached(labelCache, NON_ASCII_LABEL, code);
}

/** A letter of any script (a top-level domain is made of these). */
export function isLetterUnit(code: number): boolean {
  if (code < 0x80) return isAsciiLetter(code);
  return cached(letterCache, NON_ASCII_LETTER, code);
}

export function isDigitUnit(code: number): boolean {
  return isAsciiDigit(code);
}

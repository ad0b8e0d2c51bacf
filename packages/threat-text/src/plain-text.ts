// Control characters a payload may carry (C0 except tab, line feed and carriage return; DEL; C1).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** Text for a plain-text surface (a note, a subject): control characters dropped, line breaks kept. */
export function plainText(text: string): string {
  return text.replace(CONTROL, '');
}

export const ELLIPSIS = '…';

/**
 * `text` when it has at most `maxLength` characters; otherwise its start and an ellipsis, `maxLength`
 * characters in all, never cutting a character outside the BMP in half.
 */
export function cutToLength(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  let end = Math.max(0, maxLength - ELLIPSIS.length);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}${ELLIPSIS}`;
}

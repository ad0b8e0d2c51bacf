// The reverse of `defang` for text that reports a threat: analysts and abuse reporters write
// `hxxps[:]//evil[.]example`, `evil(.)com`, `phisher[at]evil[dot]com`. Each pattern below is a
// fixed string (with at most one optional space on each side), so one pass is linear in the text.
const DEFANGED =
  /\bhxxps?\b|\[:\/\/\]|\[:\]|\[\/\/\]| ?(?:\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)|\{dot\}) ?| ?(?:\[@\]|\(@\)|\[at\]|\(at\)|\{at\}) ?/gi;

function refangOne(match: string): string {
  const token = match.trim().toLowerCase();
  if (token.startsWith('hxxp')) return `http${token.slice(4)}`;
  if (token === '[://]') return '://';
  if (token === '[:]') return ':';
  if (token === '[//]') return '//';
  if (token.includes('.') || token.includes('dot')) return '.';
  return '@';
}

/** `hxxps[:]//evil[.]example` -> `https://evil.example`; text without defanged tokens is unchanged. */
export function refang(text: string): string {
  return text.replace(DEFANGED, refangOne);
}

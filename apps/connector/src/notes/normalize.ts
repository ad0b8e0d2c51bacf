// Zendesk's plain_body carries non-breaking spaces where the agent typed ordinary ones, and both
// sides may re-wrap whitespace; texts are compared and forwarded in this normal form.
export function normalizeText(text: string): string {
  return text
    .replace(/[\u00a0\u2007\u202f]/g, ' ')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .trim();
}

/** Texts at least this long may match by containment; shorter ones only exactly. */
export const CONTAINS_MATCH_MIN_LENGTH = 24;

/** Whether `candidate` echoes one of the `known` texts (all compared in normal form). */
export function echoesAny(candidate: string, known: Iterable<string>): boolean {
  const text = normalizeText(candidate);
  if (text === '') return false;
  for (const entry of known) {
    const other = normalizeText(entry);
    if (other === '') continue;
    if (text === other) return true;
    const shorter = text.length <= other.length ? text : other;
    const longer = shorter === text ? other : text;
    if (shorter.length >= CONTAINS_MATCH_MIN_LENGTH && longer.includes(shorter)) return true;
  }
  return false;
}

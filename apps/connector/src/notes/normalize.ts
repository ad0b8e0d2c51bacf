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

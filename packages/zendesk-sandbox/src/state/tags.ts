/** Zendesk tags are lowercase words; a value with spaces is several tags. */
export function normaliseTags(values: readonly unknown[]): string[] {
  const tags: string[] = [];
  for (const value of values) {
    for (const word of String(value)
      .toLowerCase()
      .split(/[\s,]+/)) {
      if (word !== '' && !tags.includes(word)) tags.push(word);
    }
  }
  return tags;
}

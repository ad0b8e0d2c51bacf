/** Sorts by an ISO timestamp, newest first, without trusting the server's order; invalid dates go last. */
export function newestFirst<T>(
  items: readonly T[],
  timestampOf: (item: T) => string | null | undefined,
): T[] {
  const time = (item: T) => {
    const value = Date.parse(timestampOf(item) ?? '');
    return Number.isNaN(value) ? -Infinity : value;
  };
  return [...items].sort((a, b) => time(b) - time(a));
}

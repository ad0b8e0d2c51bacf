import type { IncidentRecord } from '../state/model';

/** List order of incidents: newest created first, ties broken by id so the order is total. */
export function compareIncidents(a: IncidentRecord, b: IncidentRecord): number {
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export interface CursorPage<T> {
  items: T[];
  next: string | null;
}

/**
 * Cursor paging over an already filtered list in list order. The cursor is the id of the last item of
 * the previous page; the page continues after that item's position even if it no longer matches, so
 * paging.next walks matches only (resolutions rule 4) and a status change between pages skips nothing.
 */
export function cursorPage(
  filtered: readonly IncidentRecord[],
  options: { after?: IncidentRecord; limit: number },
): CursorPage<IncidentRecord> {
  const after = options.after;
  const remaining = after ? filtered.filter((item) => compareIncidents(item, after) > 0) : filtered;
  const items = remaining.slice(0, options.limit);
  const last = items[items.length - 1];
  return { items, next: remaining.length > options.limit && last ? last.id : null };
}

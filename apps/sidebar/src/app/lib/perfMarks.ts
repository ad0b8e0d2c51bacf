/**
 * Marked once, when the first view is on screen: its startTime is the time since the iframe's
 * navigation began, which is what the budget ("iframe load to incident detail visible") measures.
 */
export const VIEW_READY_MARK = 'incident-desk:view-ready';

export function markViewReady(linkState: string): void {
  if (typeof performance === 'undefined' || typeof performance.mark !== 'function') return;
  if (performance.getEntriesByName(VIEW_READY_MARK).length > 0) return;
  performance.mark(VIEW_READY_MARK, { detail: { linkState } });
}

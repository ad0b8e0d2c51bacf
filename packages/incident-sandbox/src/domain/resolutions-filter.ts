import type { TakedownAttempt } from '../state/model';

export type TReinitiatedAfter = 'success' | 'resolved';

/**
 * Rule 1: an attempt with a known resolvedAt followed by a later attempt with a known startedAt.
 * `success` also needs the earlier attempt's outcome to be success. An attempt whose resolvedAt is
 * null never counts as the earlier one. Attempts are stored oldest first, so "later" is a later index.
 */
function matchesReinitiatedAfter(
  attempts: readonly TakedownAttempt[],
  mode: TReinitiatedAfter,
): boolean {
  return attempts.some((earlier, i) => {
    if (earlier.resolvedAt === null) return false;
    if (mode === 'success' && earlier.outcome !== 'success') return false;
    return attempts.slice(i + 1).some((later) => later.startedAt !== null);
  });
}

/** Rule 2: only attempts with a known startedAt count. */
function countStartedAttempts(attempts: readonly TakedownAttempt[]): number {
  return attempts.filter((a) => a.startedAt !== null).length;
}

export interface AttemptFilters {
  reinitiatedAfter?: TReinitiatedAfter;
  minTakedownAttempts?: number;
}

export function matchesAttemptFilters(
  attempts: readonly TakedownAttempt[],
  filters: AttemptFilters,
): boolean {
  if (filters.reinitiatedAfter && !matchesReinitiatedAfter(attempts, filters.reinitiatedAfter)) {
    return false;
  }
  if (
    filters.minTakedownAttempts !== undefined &&
    countStartedAttempts(attempts) < filters.minTakedownAttempts
  ) {
    return false;
  }
  return true;
}

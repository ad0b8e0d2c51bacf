import type { TakedownAttempt } from '../state/model';

/** The best known time of an attempt: its start, else its end; neither known = before recording. */
const attemptTime = (a: TakedownAttempt) =>
  Date.parse(a.startedAt ?? a.resolvedAt ?? '') || -Infinity;

/**
 * Takedown attempts are listed oldest first (TakedownAttemptsStructure), whatever order they were
 * recorded in, so reinitiatedAfter ("followed by a later attempt") follows time. The sort is stable:
 * attempts with equal or unknown times keep their recording order.
 */
export function sortAttemptsOldestFirst(attempts: TakedownAttempt[]): void {
  attempts.sort((a, b) => {
    const [ta, tb] = [attemptTime(a), attemptTime(b)];
    return ta === tb ? 0 : ta < tb ? -1 : 1;
  });
}

/**
 * The attempts the resolutions endpoint shows: "a new attempt can take a few minutes to show here
 * after it shows on the single incident", so one recorded less than lagMs ago is not there yet.
 */
export function visibleAttempts(
  attempts: readonly TakedownAttempt[],
  nowMs: number,
  lagMs: number,
): TakedownAttempt[] {
  if (lagMs <= 0) return [...attempts];
  return attempts.filter(
    (a) => a.recordedAt === undefined || Date.parse(a.recordedAt) + lagMs <= nowMs,
  );
}

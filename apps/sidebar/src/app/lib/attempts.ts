import type { TTakedownAttempt } from '../api/incidentTypes';

type AttemptReading =
  | { kind: 'in_progress'; startedAt: string }
  | { kind: 'restarted'; startedAt: string }
  | { kind: 'resolved'; startedAt: string | null; resolvedAt: string | null; outcome: string }
  | { kind: 'unknown'; startedAt: string | null };

export interface ReadAttempt {
  reading: AttemptReading;
  /** startedAt null: the attempt began before attempts were recorded. */
  startedBeforeRecording: boolean;
  /** resolvedAt null with an outcome: it ended before recording, date unknown. */
  resolvedDateUnknown: boolean;
}

/** Applies the spec's reading rules to attempts given oldest first; returns them newest first. */
export function readAttempts(attempts: readonly TTakedownAttempt[]): ReadAttempt[] {
  return attempts
    .map((attempt, index): ReadAttempt => {
      const hasLater = index < attempts.length - 1;
      const startedBeforeRecording = attempt.startedAt === null;
      const resolvedDateUnknown = attempt.resolvedAt === null && attempt.outcome !== null;
      let reading: AttemptReading;
      if (attempt.outcome !== null) {
        reading = {
          kind: 'resolved',
          startedAt: attempt.startedAt,
          resolvedAt: attempt.resolvedAt,
          outcome: attempt.outcome,
        };
      } else if (attempt.startedAt !== null && attempt.resolvedAt === null) {
        reading = hasLater
          ? { kind: 'restarted', startedAt: attempt.startedAt }
          : { kind: 'in_progress', startedAt: attempt.startedAt };
      } else {
        reading = { kind: 'unknown', startedAt: attempt.startedAt };
      }
      return { reading, startedBeforeRecording, resolvedDateUnknown };
    })
    .reverse();
}

// A job that cannot finish now goes back to its queue to run again later: after a failure, with
// backoff; deferred (waiting for another system), after the delay it asked for. Either way it stays
// in its key's order (a key_strict_fifo job in retry holds back the key's later jobs) and its slot
// is free at once. The queue's own retry limit is only a backstop: the worker counts failures as
// the attempts that were not deferrals, which the job's data keeps (`deferrals`).
import { backoffDelayMs } from '@incident-desk/client-core';
import type { JobWithMetadata, PgBoss } from '@incident-desk/db';

export interface FailurePolicy {
  /** Failed attempts after the first before the job is recorded as a sync failure. */
  retryLimit: number;
  /** The first retry's delay, doubled each time up to 10 minutes. */
  retryDelaySeconds: number;
}

const MAX_RETRY_DELAY_MS = 600_000;

/**
 * pg-boss's retry limit for the sync queues: deferrals do not count as failures, so the queue
 * must never end a job that the worker still means to run.
 */
export const QUEUE_RETRY_BACKSTOP = 1_000_000;

function deferralsOf(data: unknown): number {
  const value = (data as { deferrals?: unknown } | null)?.deferrals;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0;
}

/** The attempts of this job that failed (every earlier run that was not a deferral). */
export function priorFailures(job: JobWithMetadata<unknown>): number {
  return Math.max(0, job.retryCount - deferralsOf(job.data));
}

/** How long the job waits after its `failure`-th failure (1-based). */
export function retryDelayMs(policy: FailurePolicy, failure: number): number {
  return backoffDelayMs(Math.max(0, failure - 1), {
    initialMs: policy.retryDelaySeconds * 1000,
    maxMs: MAX_RETRY_DELAY_MS,
  });
}

/**
 * Fails the attempt (pg-boss puts the job in retry, still holding its key) and sets when it runs
 * again. When the second statement is lost the queue's own short retry delay applies: the job
 * runs again early, never late or never.
 */
export async function handBack(
  boss: PgBoss,
  queue: string,
  job: JobWithMetadata<unknown>,
  next: { delayMs: number; deferred: boolean },
): Promise<void> {
  await boss.fail(
    queue,
    { id: job.id, retryCount: job.retryCount },
    {
      [next.deferred ? 'deferred' : 'failed']: true,
    },
  );
  const data = next.deferred
    ? { ...(job.data as object), deferrals: deferralsOf(job.data) + 1 }
    : (job.data as object);
  await boss.update({
    name: queue,
    data,
    options: { id: job.id, startAfter: new Date(Date.now() + next.delayMs) },
  });
}

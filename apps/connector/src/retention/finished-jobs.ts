// Finished pg-boss jobs go after JOB_RETENTION_DAYS. pg-boss's own maintenance deletes them: a job
// whose completed_on (set when it completed, failed for good or was cancelled) is deletion_seconds
// old; each queue is checked once per maintenanceIntervalSeconds (a day), so a job stays up to a
// day longer. A job takes its queue's deleteAfterSeconds when it is inserted (a retry keeps its
// own): jobs already there keep what they had, pg-boss's 7 days. Queued and retrying jobs are
// deleted by keep_until (the queue's retentionSeconds, 14 days), which stays as it is: a deferred or
// retried job may wait that long. The app's dead letters are its own rows (sync_failure), kept
// until resolved; a job pg-boss failed by itself (its last try timed out) is only a failed job.
import type { PgBoss } from '@incident-desk/db';
import { DAY_MS } from './retention-settings';

/** Sets every named queue's deleteAfterSeconds; existing queues take it for their new jobs. */
export async function keepFinishedJobs(
  boss: PgBoss,
  queues: readonly string[],
  days: number,
): Promise<void> {
  const deleteAfterSeconds = Math.round((days * DAY_MS) / 1000);
  for (const name of queues) await boss.updateQueue(name, { deleteAfterSeconds });
}

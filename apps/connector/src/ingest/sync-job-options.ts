// What every sync job is sent with, wherever it is sent from (the inbox, an admin's retry).
/**
 * A running job's worker refreshes its heartbeat every few seconds; one whose heartbeat is this
 * old belongs to a process that died, and is run again (dead-job-sweep.ts) instead of waiting out
 * its whole time limit. pg-boss's least.
 */
export const JOB_HEARTBEAT_SECONDS = 10;

/** What every sync job is sent with: its account's group (fair share) and the heartbeat. */
export function syncJobOptions(accountId: string | null): {
  group?: { id: string };
  heartbeatSeconds: number;
} {
  return {
    ...(accountId ? { group: { id: accountId } } : {}),
    heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
  };
}

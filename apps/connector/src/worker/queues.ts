import type { PgBoss } from '@incident-desk/db';
import { INCIDENT_EVENT_QUEUE, TICKET_EVENT_QUEUE } from '../jobs';
import { JOB_HEARTBEAT_SECONDS } from '../ingest';
import { QUEUE_RETRY_BACKSTOP } from './hand-back';

export const SYNC_QUEUES = [INCIDENT_EVENT_QUEUE, TICKET_EVENT_QUEUE] as const;
export type SyncQueue = (typeof SYNC_QUEUES)[number];

export interface SyncQueueOptions {
  /** Retries after the first attempt before a job is recorded as a sync failure. Default 8. */
  retryLimit?: number;
  /** First retry delay in seconds, doubled each time up to 10 minutes. Default 2. */
  retryDelay?: number;
  /** A job still active after this many seconds (its process may have died) is failed and retried. Default 300. */
  expireInSeconds?: number;
}

/**
 * Jobs of one ticket (ticket events) or one incident (incident events) share a singleton key and
 * run one at a time in arrival order, on any instance: that is what keeps two instances from
 * opening two tickets for one new incident. The worker times retries (hand-back.ts): exponential
 * backoff up to 10 minutes after a failure, the asked delay after a deferral; pg-boss's own retry
 * settings only apply when the worker could not set the time.
 */
export async function createSyncQueues(
  boss: PgBoss,
  options: SyncQueueOptions = {},
): Promise<void> {
  const timing = {
    // no NOTIFY: the worker wakes its slots itself (worker.ts says when)
    notify: false,
    retryLimit: QUEUE_RETRY_BACKSTOP,
    retryDelay: 1,
    retryBackoff: false,
    expireInSeconds: options.expireInSeconds ?? 300,
  };
  for (const name of SYNC_QUEUES) {
    await boss.createQueue(name, {
      policy: 'key_strict_fifo',
      heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
      ...timing,
    });
    // an existing queue keeps what it was created with: the configured timing applies from now on,
    // and a queue made when NOTIFY was sent stops sending it
    await boss.updateQueue(name, timing);
  }
}

// Dead letters of one account: sync jobs recorded as SyncFailure (the worker completes them so the
// ticket's or incident's later jobs are not held back) and pg-boss jobs that ended failed (e.g. a
// setup job that crashed on every attempt). Retry puts the job back; nothing else is touched.
import type { PgBoss, TDatabase } from '@incident-desk/db';
import { ACCOUNT_SETUP_QUEUE } from '../accounts/setup-job';
import { INCIDENT_EVENT_QUEUE } from '../http/incident-webhook';
import { TICKET_EVENT_QUEUE } from '../http/ticketing-webhook';
import { SYNC_QUEUES } from '../worker/queues';

export const DEAD_LETTER_QUEUES = [...SYNC_QUEUES, ACCOUNT_SETUP_QUEUE] as const;

export interface FailedJobView {
  queue: string;
  id: string;
  failedAt: string | null;
  reason: string;
}

function reasonOf(output: unknown): string {
  if (output && typeof output === 'object' && 'message' in output) {
    return String((output as { message: unknown }).message).slice(0, 500);
  }
  return output === null || output === undefined ? '' : JSON.stringify(output).slice(0, 500);
}

export async function listDeadLetters(db: TDatabase, boss: PgBoss, accountId: string) {
  const syncFailures = await db.prisma.syncFailure.findMany({
    where: { accountId, resolvedAt: null },
    orderBy: { createdAt: 'desc' },
    take: 200,
  });
  const failedJobs: FailedJobView[] = [];
  for (const queue of DEAD_LETTER_QUEUES) {
    const jobs = await boss.findJobs<Record<string, unknown>>(queue, { data: { accountId } });
    for (const job of jobs) {
      if (job.state !== 'failed' || job.data?.accountId !== accountId) continue;
      failedJobs.push({
        queue,
        id: job.id,
        failedAt: job.completedOn ? new Date(job.completedOn).toISOString() : null,
        reason: reasonOf(job.output),
      });
    }
  }
  return {
    syncFailures: syncFailures.map((row) => ({
      id: row.id,
      queue: row.queue,
      ticketId: row.ticketId === null ? null : Number(row.ticketId),
      incidentId: row.incidentId,
      reason: row.reason,
      createdAt: row.createdAt,
    })),
    failedJobs,
  };
}

/** The same singleton key the receivers use, so the retried job waits its turn behind its peers. */
function singletonKeyOf(row: {
  accountId: string;
  queue: string;
  ticketId: bigint | null;
  incidentId: string | null;
}): string | undefined {
  if (row.queue === TICKET_EVENT_QUEUE && row.ticketId !== null)
    return `${row.accountId}:${row.ticketId}`;
  if (row.queue === INCIDENT_EVENT_QUEUE)
    return `${row.accountId}:${row.incidentId ?? 'no-incident'}`;
  return undefined;
}

/** False when the account has no such unresolved failure (another account's ids included). */
export async function retrySyncFailure(
  db: TDatabase,
  boss: PgBoss,
  accountId: string,
  id: string,
  now: Date,
): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
  const row = await db.prisma.syncFailure.findFirst({ where: { id, accountId, resolvedAt: null } });
  if (!row || !(SYNC_QUEUES as readonly string[]).includes(row.queue)) return false;
  // Claim first: two clicks queue one job.
  const claimed = await db.prisma.syncFailure.updateMany({
    where: { id, accountId, resolvedAt: null },
    data: { resolvedAt: now },
  });
  if (claimed.count !== 1) return false;
  const singletonKey = singletonKeyOf(row);
  await boss.send(row.queue, row.payload as object, singletonKey ? { singletonKey } : {});
  return true;
}

export async function retryFailedJob(
  boss: PgBoss,
  accountId: string,
  queue: string,
  id: string,
): Promise<'retried' | 'not_found' | 'conflict'> {
  if (!(DEAD_LETTER_QUEUES as readonly string[]).includes(queue)) return 'not_found';
  if (!/^[0-9a-f-]{36}$/i.test(id)) return 'not_found';
  const [job] = await boss.findJobs<Record<string, unknown>>(queue, { id });
  if (!job || job.state !== 'failed' || job.data?.accountId !== accountId) return 'not_found';
  try {
    await boss.retry(queue, id);
  } catch {
    // e.g. a singleton queue already holding a queued job of that account
    return 'conflict';
  }
  return 'retried';
}

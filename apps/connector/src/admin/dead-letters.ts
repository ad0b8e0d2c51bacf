// Dead letters of one account: sync jobs recorded as SyncFailure (the worker completes them so the
// ticket's or incident's later jobs are not held back) and pg-boss jobs that ended failed (e.g. a
// setup job that crashed on every attempt). Retry puts the job back; nothing else is touched.
import type { FailureDescription } from '@incident-desk/admin-contract';
import type { PgBoss, TDatabase } from '@incident-desk/db';
import { syncJobOptions } from '../ingest';
import { ACCOUNT_SETUP_QUEUE } from '../accounts';
import {
  INCIDENT_EVENT_QUEUE,
  incidentOrderingKey,
  TICKET_EVENT_QUEUE,
  ticketOrderingKey,
} from '../jobs';
import { IN_FLIGHT_PREFIX } from '../sidebar-api';
import { SYNC_QUEUES } from '../worker';
import { problemOf, workOf } from './dead-letter-codes';
import { ticketReferencesOf } from './incident-references';

/** Where the page links a ticket (the account's agent workspace) and an incident (if anywhere). */
export interface DeadLetterLinks {
  ticketUrlOf: (ticketId: number) => string;
  incidentUrlOf: (incidentId: string) => string | null;
}

const DEAD_LETTER_QUEUES = [...SYNC_QUEUES, ACCOUNT_SETUP_QUEUE] as const;

export interface FailedJobView extends FailureDescription {
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

function kindOf(payload: unknown): string | undefined {
  const body = (payload as { body?: { kind?: unknown } } | null)?.body;
  return typeof body?.kind === 'string' ? body.kind : undefined;
}

/**
 * Every failed sync of the account: failed jobs of either direction (SyncFailure), comments whose
 * forward failed (ForwardedComment, the sidebar's "failed forwards"), and pg-boss jobs that ended
 * failed. Each says in codes what failed, why, and so what Retry will do.
 */
export async function listDeadLetters(
  db: TDatabase,
  boss: PgBoss,
  accountId: string,
  links: DeadLetterLinks,
) {
  const { ticketUrlOf, incidentUrlOf } = links;
  const [syncFailures, forwards] = await Promise.all([
    db.prisma.syncFailure.findMany({
      where: { accountId, resolvedAt: null },
      orderBy: { createdAt: 'desc' },
      take: 200,
    }),
    db.prisma.forwardedComment.findMany({
      where: { accountId, status: 'failed' },
      orderBy: { updatedAt: 'desc' },
      take: 200,
    }),
  ]);
  const referenceOf = await ticketReferencesOf(db, accountId, [
    ...syncFailures.flatMap((row) => (row.incidentId ? [row.incidentId] : [])),
    ...forwards.map((row) => row.incidentId),
  ]);
  const failedJobs = await failedJobsOf(boss, accountId);
  return {
    syncFailures: syncFailures.map((row) => {
      const kind = kindOf(row.payload);
      const ticketId = row.ticketId === null ? null : Number(row.ticketId);
      return {
        id: row.id,
        queue: row.queue,
        ticketId,
        ticketUrl: ticketId === null ? null : ticketUrlOf(ticketId),
        incidentId: row.incidentId,
        // what the ticket's Incident ID field holds, as agents know the incident
        incidentRef: row.incidentId ? referenceOf(row.incidentId) : null,
        incidentUrl: row.incidentId ? incidentUrlOf(row.incidentId) : null,
        reason: row.reason,
        createdAt: row.createdAt,
        work: workOf(row.queue, kind),
        problem: problemOf(row.queue, row.reason),
        canRetry: (SYNC_QUEUES as readonly string[]).includes(row.queue),
      };
    }),
    failedForwards: forwards.map((row) => {
      const inFlight = row.detail?.startsWith(IN_FLIGHT_PREFIX) ?? false;
      return {
        commentId: String(row.commentId),
        ticketId: Number(row.ticketId),
        ticketUrl: ticketUrlOf(Number(row.ticketId)),
        incidentId: row.incidentId,
        incidentRef: referenceOf(row.incidentId),
        incidentUrl: incidentUrlOf(row.incidentId),
        reason: row.detail ?? '',
        updatedAt: row.updatedAt,
        work: 'comment_forward' as const,
        problem: inFlight
          ? ({ code: 'outcome_unknown' } as const)
          : problemOf(TICKET_EVENT_QUEUE, row.detail ?? ''),
        canRetry: !inFlight,
      };
    }),
    failedJobs,
  };
}

/** pg-boss jobs of the account that ended failed, in codes. */
async function failedJobsOf(boss: PgBoss, accountId: string): Promise<FailedJobView[]> {
  const failedJobs: FailedJobView[] = [];
  for (const queue of DEAD_LETTER_QUEUES) {
    const jobs = await boss.findJobs<Record<string, unknown>>(queue, { data: { accountId } });
    for (const job of jobs) {
      if (job.state !== 'failed' || job.data?.accountId !== accountId) continue;
      const reason = reasonOf(job.output);
      const kind = kindOf(job.data);
      failedJobs.push({
        queue,
        id: job.id,
        failedAt: job.completedOn ? new Date(job.completedOn).toISOString() : null,
        reason,
        work: workOf(queue, kind),
        problem: problemOf(queue, reason),
      });
    }
  }
  return failedJobs;
}

/** The same singleton key the receivers use, so the retried job waits its turn behind its peers. */
function singletonKeyOf(row: {
  accountId: string;
  queue: string;
  ticketId: bigint | null;
  incidentId: string | null;
}): string | undefined {
  if (row.queue === TICKET_EVENT_QUEUE && row.ticketId !== null)
    return ticketOrderingKey(row.accountId, row.ticketId);
  if (row.queue === INCIDENT_EVENT_QUEUE) return incidentOrderingKey(row.accountId, row.incidentId);
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
  await boss.send(row.queue, row.payload as object, {
    ...(singletonKey ? { singletonKey } : {}),
    ...syncJobOptions(row.accountId),
  });
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

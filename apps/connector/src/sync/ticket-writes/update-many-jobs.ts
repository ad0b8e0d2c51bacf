// The update_many jobs a pass queued: their status read (or, inline, waited for), and each
// ticket's result recorded once the job finished.
import type { TDatabase } from '@incident-desk/db';
import {
  isJobFinished,
  isJobResultSuccess,
  ZendeskRateLimitedError,
  ZendeskRecordNotFoundError,
  type TJobStatus,
  type TJobStatusResult,
} from '@incident-desk/zendesk-api';
import { type AccountContext, isUnansweredZendeskRequest } from '../../accounts';
import { coalesce } from './coalesce';
import { jobMaxWaitMs, jobPollMs, type DrainOptions } from './drain-options';
import { isClosedResult } from './follow-up-closed-ticket';
import { carriesStatus } from './refused-status';
import { writeOne } from './send-ticket-writes';
import type { TicketBatch } from './ticket-batch';
import { bulkRequestIdOfJob, releaseTicketBudget } from './write-budget';
import { handleError, refuse, retryLater } from './write-outcome';

/** The inline path: waits for the job, then records each ticket's result (tickets written). */
export async function waitForJob(
  ctx: AccountContext,
  db: TDatabase,
  batches: TicketBatch[],
  job: TJobStatus,
  options: DrainOptions,
): Promise<number> {
  let done: TJobStatus;
  try {
    done = await ctx.zendesk.jobStatuses.waitFor(job, {
      pollIntervalMs: Math.min(jobPollMs(options), 500),
      maxWaitMs: jobMaxWaitMs(options),
    });
  } catch (error) {
    // the job's status could not be read: the changes keep the job's id, so no pass writes them
    // again while the job may still run
    await handleError(ctx, db, batches, error, options);
    return 0;
  }
  return settleFinishedJob(ctx, db, batches, done, options);
}

/**
 * The update_many jobs earlier passes queued whose status is due to be read: one read per job.
 * Still queued or working, they are read again later; finished, each ticket's result is recorded
 * (tickets written).
 */
export async function settleQueuedJobs(
  ctx: AccountContext,
  db: TDatabase,
  now: Date,
  options: DrainOptions,
): Promise<number> {
  const rows = await db.prisma.pendingTicketChange.findMany({
    where: {
      accountId: ctx.accountId,
      writtenAt: null,
      failedReason: null,
      writeJobId: { not: null },
      writeRef: { not: null },
      ...(options.ignoreReadyAt ? {} : { readyAt: { lte: now } }),
    },
    orderBy: [{ eventAt: 'asc' }, { createdAt: 'asc' }],
  });
  if (rows.length === 0) return 0;
  const links = await db.prisma.incidentLink.findMany({
    where: {
      accountId: ctx.accountId,
      ticketId: { in: [...new Set(rows.map((r) => r.ticketId))] },
    },
    select: { ticketId: true, dashboardUrl: true },
  });
  const dashboardOf = new Map(links.map((link) => [link.ticketId, link.dashboardUrl]));
  const byJob = new Map<string, Map<bigint, typeof rows>>();
  for (const row of rows) {
    const tickets = byJob.get(row.writeJobId!) ?? new Map<bigint, typeof rows>();
    tickets.set(row.ticketId, [...(tickets.get(row.ticketId) ?? []), row]);
    byJob.set(row.writeJobId!, tickets);
  }
  let written = 0;
  for (const [jobId, tickets] of byJob) {
    // the tickets in the order the job carried them (a result may name only its index)
    const batches: TicketBatch[] = [...tickets].map(([ticketId, ticketRows]) => {
      const writeRef = ticketRows[0]!.writeRef!;
      const foundByNote = ticketRows[0]!.writeFoundByNote;
      const dashboardUrl = dashboardOf.get(ticketId);
      const { body, input } = coalesce(ctx, ticketRows, writeRef, { dashboardUrl });
      return { ticketId, rows: ticketRows, writeRef, foundByNote, dashboardUrl, body, input };
    });
    const ids = batches.flatMap((batch) => batch.rows.map((row) => row.id));
    let status: TJobStatus | null;
    try {
      status = await ctx.zendesk.jobStatuses.show(jobId);
    } catch (error) {
      if (error instanceof ZendeskRateLimitedError) {
        await handleError(ctx, db, batches, error, options); // the account pauses: no more calls
        break;
      }
      if (isUnansweredZendeskRequest(error)) {
        await handleError(ctx, db, batches, error, options);
        continue;
      }
      // job statuses are kept a day: one gone is long finished, and its notes are looked for
      if (!(error instanceof ZendeskRecordNotFoundError)) throw error;
      status = null;
    }
    if (status !== null && !isJobFinished(status)) {
      await db.prisma.pendingTicketChange.updateMany({
        where: { id: { in: ids } },
        data: { readyAt: new Date(options.now().getTime() + jobPollMs(options)) },
      });
      continue;
    }
    if (status === null) {
      await db.prisma.pendingTicketChange.updateMany({
        where: { id: { in: ids } },
        data: { writeJobId: null, readyAt: options.now() },
      });
      continue;
    }
    written += await settleFinishedJob(ctx, db, batches, status, options);
  }
  return written;
}

/**
 * Records each ticket's result of a finished job: the number of tickets written. The changes no
 * longer wait for the job; one whose result is unclear is looked for by its reference later.
 */
async function settleFinishedJob(
  ctx: AccountContext,
  db: TDatabase,
  batches: TicketBatch[],
  done: TJobStatus,
  options: DrainOptions,
): Promise<number> {
  await db.prisma.pendingTicketChange.updateMany({
    where: { id: { in: batches.flatMap((batch) => batch.rows.map((row) => row.id)) } },
    data: { writeJobId: null },
  });
  const results: TJobStatusResult[] = done.results ?? [];
  if (done.status !== 'completed' && results.length === 0) {
    // failed or killed without per-ticket results: whatever landed is found by its reference
    for (const batch of batches) await retryLater(db, batch, options);
    return 0;
  }
  const succeeded: TicketBatch[] = [];
  const notApplied: bigint[] = [];
  let written = 0;
  for (const [index, batch] of batches.entries()) {
    const result =
      results.find((r) => r.id === Number(batch.ticketId)) ??
      results.find((r) => r.index === index);
    if (result && isJobResultSuccess(result)) {
      succeeded.push(batch);
      continue;
    }
    // Zendesk applied nothing to this ticket (a missing result says nothing): its update is given
    // back, unless the single update below takes it
    if (result) notApplied.push(batch.ticketId);
    if (
      result &&
      /RecordInvalid/i.test(result.error ?? '') &&
      !isClosedResult(result) &&
      carriesStatus(ctx, batch)
    ) {
      // A bulk result names no field: alone, the ticket's 422 says whether the Status value was
      // refused (then it goes without it), and any other refusal is handled as it would be here.
      const alone = await writeOne(ctx, db, batch, options, true);
      if (alone > 0) notApplied.pop();
      written += alone;
    } else if (result && isPermanentResult(result)) {
      const closed = isClosedResult(result)
        ? 'known'
        : /RecordInvalid/i.test(result.error ?? '')
          ? 'maybe'
          : 'no';
      if (await refuse(ctx, db, batch, describeResult(result), closed, options)) written += 1;
    } else {
      await retryLater(db, batch, options);
    }
  }
  if (notApplied.length > 0)
    await releaseTicketBudget(db, ctx.accountId, bulkRequestIdOfJob(done.id), notApplied);
  if (succeeded.length > 0) {
    const at = options.now();
    await db.prisma.pendingTicketChange.updateMany({
      where: {
        id: { in: succeeded.flatMap((batch) => batch.rows.map((row) => row.id)) },
        writtenAt: null,
      },
      data: { writtenAt: at },
    });
    for (const batch of succeeded) options.onWritten?.(batch.rows, at);
  }
  return written + succeeded.length;
}

function describeResult(result: TJobStatusResult): string {
  const details =
    typeof result.details === 'string'
      ? result.details
      : JSON.stringify(result.details ?? result.errors ?? '');
  return `update_many refused ticket ${result.id ?? '?'}: ${result.error ?? 'error'} ${details}`.trim();
}

function isPermanentResult(result: TJobStatusResult): boolean {
  if (/RateLimit|TooMany/i.test(result.error ?? '')) return false;
  const text = `${result.error ?? ''} ${typeof result.details === 'string' ? result.details : JSON.stringify(result.details ?? '')}`;
  return /closed|not ?found|RecordInvalid|RecordNotFound|PermissionDenied/i.test(text);
}

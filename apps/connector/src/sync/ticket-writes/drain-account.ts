// One pass of an account's writer: picks the tickets whose changes are ready, within the account's
// and each ticket's budget, and writes each ticket's waiting changes as one update; two or more
// tickets go in one update_many. A 429 pauses the whole account for its Retry-After and loses
// nothing. Before a request the changes get the write's reference (it ends the note), so after a
// crash, a 5xx or a timeout the next pass reads the ticket, finds the note if Zendesk committed
// it, and only writes again when it did not. The reference is also a lease: until the request (or
// the update_many job it started) can have finished, no pass of any instance touches those changes,
// so a writer that lost its lock (a database restart) or died mid-request is never raced.
import { randomUUID } from 'node:crypto';
import { withSqlTransaction, type TDatabase } from '@incident-desk/db';
import {
  isJobResultSuccess,
  ZendeskForbiddenError,
  ZendeskRateLimitedError,
  ZendeskRecordInvalidError,
  ZendeskRecordNotFoundError,
  type TJobStatus,
  type TJobStatusResult,
  type TTicketBulkUpdateItem,
} from '@incident-desk/zendesk-api';
import type { AccountContext } from '../../accounts/account-context';
import { isUnansweredZendeskRequest } from '../../http/service-failure';
import { writeReferenceLine } from '../../notes/incident-change-note';
import { normalizeText } from '../../notes/normalize';
import { coalesce, type WaitingChange } from './coalesce';
import { followUpClosedTicket, isClosedRefusal, isClosedResult } from './follow-up-closed-ticket';
import {
  logRequest,
  pauseAccount,
  readBudget,
  ticketsBlockedUntil,
  type WriteLimits,
} from './write-budget';

export const TICKET_WRITE_QUEUE = 'ticket-write';

export interface DrainOptions {
  now: () => Date;
  limits: WriteLimits;
  /** Write changes still inside their wait (the inline path of tests and one-off tools). */
  ignoreReadyAt?: boolean;
  /** After a 5xx or a timeout, how long a ticket waits before its note is looked for. Default 5 000 ms. */
  unsureRetryMs?: number;
  /** Retry-After assumed when a 429 names none. Default 60 s. */
  defaultRetryAfterSeconds?: number;
  jobPollIntervalMs?: number;
  jobMaxWaitMs?: number;
  /**
   * How long changes sent in a request stay untouched by other passes: longer than the Zendesk
   * client's per-attempt timeout. Default 45 000 ms. A bulk write's lease runs to the job's wait.
   */
  leaseMs?: number;
  /** Told after each ticket write Zendesk accepted: its changes and when it was written (metrics). */
  onWritten?: (changes: readonly WaitingChange[], at: Date) => void;
  /** Told about every failed request of the account's writer (write-health-recorder.ts). */
  onWriteFailure?: (accountId: string, error: unknown) => void;
  /** Told after a pass in which Zendesk accepted a write of the account (write health). */
  onWriteSucceeded?: (accountId: string) => void;
}

export interface DrainResult {
  /** Tickets updated in this pass. */
  written: number;
  /** Requests sent (updates and update_many). */
  requests: number;
  /** When something waiting may next be written; null when nothing waits. */
  nextAt: Date | null;
}

interface TicketBatch {
  ticketId: bigint;
  rows: WaitingChange[];
  writeRef: string;
  body: string | undefined;
  input: ReturnType<typeof coalesce>['input'];
}

const BATCH_MAX = 100;

export async function drainAccountOnce(
  ctx: AccountContext,
  db: TDatabase,
  options: DrainOptions,
): Promise<DrainResult> {
  const now = options.now();
  const accountId = ctx.accountId;
  const budget = await readBudget(db, accountId, options.limits, now);
  if (budget.pausedUntil) return { written: 0, requests: 0, nextAt: budget.pausedUntil };

  const waiting = await db.prisma.pendingTicketChange.groupBy({
    by: ['ticketId'],
    where: { accountId, writtenAt: null, failedReason: null },
    _min: { readyAt: true, createdAt: true },
  });
  if (waiting.length === 0) return { written: 0, requests: 0, nextAt: null };
  const leased = options.ignoreReadyAt
    ? new Map<bigint, Date>()
    : await leasedTickets(db, accountId, now);
  const ready = waiting
    .filter(
      (w) =>
        options.ignoreReadyAt ||
        (w._min.readyAt!.getTime() <= now.getTime() && !leased.has(w.ticketId)),
    )
    .sort((a, b) => a._min.createdAt!.getTime() - b._min.createdAt!.getTime());
  let nextAt: Date | null = earliest([
    ...waiting
      .filter((w) => !ready.includes(w) && !leased.has(w.ticketId))
      .map((w) => w._min.readyAt!),
    ...leased.values(),
  ]);
  if (ready.length === 0) return { written: 0, requests: 0, nextAt };

  const blocked = await ticketsBlockedUntil(
    db,
    accountId,
    ready.map((w) => w.ticketId),
    options.limits,
    now,
  );
  nextAt = earliest([...(nextAt ? [nextAt] : []), ...blocked.values()]);
  const eligible = ready.filter((w) => !blocked.has(w.ticketId)).map((w) => w.ticketId);
  if (eligible.length === 0) return { written: 0, requests: 0, nextAt };

  const batches = await prepareTickets(ctx, db, eligible.slice(0, BATCH_MAX), options);
  if (batches.length === 0) return { written: 0, requests: 0, nextAt: now };

  // Marked before the request: the comment trigger the update fires may arrive first (echo
  // suppression), and a retry must know which reference to look for.
  await markSending(db, accountId, batches, new Date(now.getTime() + (options.leaseMs ?? 45_000)));
  // One ticket: a single update while the account's Update Ticket minute has room. Several, or
  // one when that minute is spent: update_many (another endpoint; only the per-ticket budget and
  // the job limit apply).
  const bulk = batches.length > 1 || budget.accountFree === 0;
  await logRequest(
    db,
    accountId,
    batches.map((b) => b.ticketId),
    bulk,
    options.now(),
  );
  // more may be waiting: the caller runs another pass at once
  if (!bulk) {
    const written = await writeOne(ctx, db, batches[0]!, options);
    return { written, requests: 1, nextAt: options.now() };
  }
  const job = await queueMany(ctx, db, batches, options);
  if (job === null) return { written: 0, requests: 1, nextAt: options.now() };
  const written = await settleMany(ctx, db, batches, job, options);
  return { written, requests: 1, nextAt: options.now() };
}

/** The references and leases of a pass's writes, and the notes they carry (own-note echo), in one transaction. */
async function markSending(
  db: TDatabase,
  accountId: string,
  batches: readonly TicketBatch[],
  leaseUntil: Date,
): Promise<void> {
  const ids = batches.flatMap((batch) => batch.rows.map((row) => row.id));
  const refs = batches.flatMap((batch) => batch.rows.map(() => batch.writeRef));
  const notes = batches.filter((batch) => batch.body !== undefined);
  await withSqlTransaction(db, async (sql) => {
    await sql.executeSql(
      `UPDATE pending_ticket_change AS change
          SET write_ref = sending.ref, write_job_id = NULL, ready_at = $3
         FROM unnest($1::uuid[], $2::text[]) AS sending(id, ref)
        WHERE change.id = sending.id`,
      [ids, refs, leaseUntil.toISOString()],
    );
    if (notes.length > 0)
      await sql.executeSql(
        `INSERT INTO own_note (id, account_id, ticket_id, text)
         SELECT gen_random_uuid(), $1::uuid, note.ticket_id, note.text
           FROM unnest($2::bigint[], $3::text[]) AS note(ticket_id, text)`,
        [
          accountId,
          notes.map((batch) => batch.ticketId.toString()),
          notes.map((batch) => normalizeText(batch.body!)),
        ],
      );
  });
}

/** Tickets with changes a request is still carrying, and when their lease ends. */
async function leasedTickets(
  db: TDatabase,
  accountId: string,
  now: Date,
): Promise<Map<bigint, Date>> {
  const rows = await db.prisma.pendingTicketChange.groupBy({
    by: ['ticketId'],
    where: {
      accountId,
      writtenAt: null,
      failedReason: null,
      writeRef: { not: null },
      readyAt: { gt: now },
    },
    _max: { readyAt: true },
  });
  return new Map(rows.map((row) => [row.ticketId, row._max.readyAt!]));
}

function earliest(dates: Date[]): Date | null {
  if (dates.length === 0) return null;
  return new Date(Math.min(...dates.map((d) => d.getTime())));
}

/**
 * Each ticket's waiting changes as one update, read for all the pass's tickets at once. Changes an
 * earlier attempt carried are settled first: when the ticket shows that attempt's note, they are
 * written; otherwise they go again, with the rest.
 */
async function prepareTickets(
  ctx: AccountContext,
  db: TDatabase,
  ticketIds: bigint[],
  options: DrainOptions,
): Promise<TicketBatch[]> {
  const [rows, links] = await Promise.all([
    db.prisma.pendingTicketChange.findMany({
      where: {
        accountId: ctx.accountId,
        ticketId: { in: ticketIds },
        writtenAt: null,
        failedReason: null,
      },
      orderBy: [{ eventAt: 'asc' }, { createdAt: 'asc' }],
    }),
    db.prisma.incidentLink.findMany({
      where: { accountId: ctx.accountId, ticketId: { in: ticketIds } },
      select: { ticketId: true, dashboardUrl: true },
    }),
  ]);
  const rowsOf = new Map<bigint, typeof rows>();
  for (const row of rows) rowsOf.set(row.ticketId, [...(rowsOf.get(row.ticketId) ?? []), row]);
  const dashboardOf = new Map(links.map((link) => [link.ticketId, link.dashboardUrl]));
  // one bulk job carries many tickets: ask Zendesk for each job's status once per pass
  const jobUnfinished = jobStatusReader(ctx);
  const batches: TicketBatch[] = [];
  const settled: string[] = [];
  for (const ticketId of ticketIds) {
    let waiting = rowsOf.get(ticketId) ?? [];
    if (waiting.some((row) => row.writeRef !== null)) {
      const left = await settleEarlierAttempts(ctx, db, ticketId, waiting, jobUnfinished, options);
      if (left === null) continue;
      waiting = left;
    }
    if (waiting.length === 0) continue;
    const writeRef = randomUUID();
    const { body, input } = coalesce(ctx, waiting, writeRef, dashboardOf.get(ticketId));
    if (Object.keys(input).length === 0) {
      settled.push(...waiting.map((row) => row.id));
      continue;
    }
    batches.push({ ticketId, rows: waiting, writeRef, body, input });
  }
  if (settled.length > 0)
    await db.prisma.pendingTicketChange.updateMany({
      where: { id: { in: settled } },
      data: { writtenAt: options.now() },
    });
  return batches;
}

/**
 * A ticket whose changes an earlier request carried: null while that bulk job is still at Zendesk
 * (never write twice); else the changes still to write, without those whose note landed.
 */
async function settleEarlierAttempts<
  T extends { id: string; writeRef: string | null; writeJobId: string | null },
>(
  ctx: AccountContext,
  db: TDatabase,
  ticketId: bigint,
  rows: T[],
  jobUnfinished: (jobId: string) => Promise<boolean>,
  options: DrainOptions,
): Promise<T[] | null> {
  const jobIds = [
    ...new Set(rows.map((row) => row.writeJobId).filter((id): id is string => id !== null)),
  ];
  if ((await Promise.all(jobIds.map(jobUnfinished))).some(Boolean)) {
    await db.prisma.pendingTicketChange.updateMany({
      where: { id: { in: rows.filter((row) => row.writeJobId !== null).map((row) => row.id) } },
      data: { readyAt: new Date(options.now().getTime() + (options.unsureRetryMs ?? 5_000)) },
    });
    return null;
  }
  const attempted = [
    ...new Set(rows.map((row) => row.writeRef).filter((ref): ref is string => ref !== null)),
  ];
  const landed = await refsOnTicket(ctx, Number(ticketId), attempted);
  if (landed.size === 0) return rows;
  await db.prisma.pendingTicketChange.updateMany({
    where: { accountId: ctx.accountId, ticketId, writtenAt: null, writeRef: { in: [...landed] } },
    data: { writtenAt: options.now() },
  });
  return rows.filter((row) => row.writeRef === null || !landed.has(row.writeRef));
}

/** Whether a bulk job is still queued or working at Zendesk, asked once per job and pass. */
function jobStatusReader(ctx: AccountContext): (jobId: string) => Promise<boolean> {
  const answers = new Map<string, Promise<boolean>>();
  return (jobId) => {
    let answer = answers.get(jobId);
    if (!answer) {
      answer = ctx.zendesk.jobStatuses.show(jobId).then(
        (job) => job.status === 'queued' || job.status === 'working',
        (error: unknown) => {
          // job statuses are kept a day: one gone is long finished, and its note is looked for
          if (error instanceof ZendeskRecordNotFoundError) return false;
          throw error;
        },
      );
      answers.set(jobId, answer);
    }
    return answer;
  };
}

async function refsOnTicket(
  ctx: AccountContext,
  ticketId: number,
  refs: string[],
): Promise<Set<string>> {
  const page = await ctx.zendesk.tickets.comments.list(ticketId, {
    sortOrder: 'desc',
    includeUsers: false,
  });
  const found = new Set<string>();
  for (const comment of page.getItems()) {
    const text = comment.body ?? comment.plain_body ?? '';
    for (const ref of refs) if (text.includes(writeReferenceLine(ref))) found.add(ref);
  }
  return found;
}

async function markWritten(
  db: TDatabase,
  batch: TicketBatch,
  at: Date,
  options: DrainOptions,
): Promise<void> {
  await db.prisma.pendingTicketChange.updateMany({
    where: { id: { in: batch.rows.map((row) => row.id) }, writtenAt: null },
    data: { writtenAt: at },
  });
  options.onWritten?.(batch.rows, at);
}

/** Unsure whether Zendesk applied it: the note is looked for after a short wait. */
async function retryLater(db: TDatabase, batch: TicketBatch, options: DrainOptions): Promise<void> {
  await db.prisma.pendingTicketChange.updateMany({
    where: { id: { in: batch.rows.map((row) => row.id) }, writtenAt: null },
    data: { readyAt: new Date(options.now().getTime() + (options.unsureRetryMs ?? 5_000)) },
  });
}

/**
 * Zendesk refused the change for good. A closed ticket with a note waiting gets a follow-up that
 * carries it (follow-up-closed-ticket.ts); anything else is a dead letter for admins.
 */
async function refuse(
  ctx: AccountContext,
  db: TDatabase,
  batch: TicketBatch,
  reason: string,
  closed: 'known' | 'maybe' | 'no',
  options: DrainOptions,
): Promise<boolean> {
  if (closed !== 'no') {
    try {
      const followUp = await followUpClosedTicket(
        ctx,
        db,
        batch.ticketId,
        batch.rows,
        batch.writeRef,
        options.now(),
        closed === 'known',
      );
      if (followUp !== null) return true;
    } catch (error) {
      if (isUnansweredZendeskRequest(error) || error instanceof ZendeskRateLimitedError) {
        // the follow-up may or may not exist: the next pass is refused again and asks again
        // with the same idempotency key, so it never opens a second one
        await retryLater(db, batch, options);
        return false;
      }
      reason = `${reason}; follow-up refused: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  await failForGood(ctx, db, batch, reason);
  return false;
}

/** Zendesk refused the change for good (a closed or deleted ticket): a dead letter for admins. */
async function failForGood(
  ctx: AccountContext,
  db: TDatabase,
  batch: TicketBatch,
  reason: string,
): Promise<void> {
  await db.prisma.pendingTicketChange.updateMany({
    where: { id: { in: batch.rows.map((row) => row.id) }, writtenAt: null },
    data: { failedReason: reason },
  });
  await db.prisma.syncFailure.create({
    data: {
      accountId: ctx.accountId,
      queue: TICKET_WRITE_QUEUE,
      jobId: `${TICKET_WRITE_QUEUE}:${batch.writeRef}`,
      ticketId: batch.ticketId,
      incidentId: batch.rows[0]?.incidentId ?? null,
      reason,
      payload: { ticketId: Number(batch.ticketId), events: batch.rows.map((row) => row.eventRef) },
    },
  });
}

async function handleError(
  ctx: AccountContext,
  db: TDatabase,
  batches: TicketBatch[],
  error: unknown,
  options: DrainOptions,
): Promise<void> {
  options.onWriteFailure?.(ctx.accountId, error);
  if (error instanceof ZendeskRateLimitedError) {
    const seconds = error.retryAfterSeconds ?? options.defaultRetryAfterSeconds ?? 60;
    await pauseAccount(db, ctx.accountId, new Date(options.now().getTime() + seconds * 1000));
    // nothing was applied; the changes keep their reference and are looked for, then written
    return;
  }
  if (isUnansweredZendeskRequest(error)) {
    for (const batch of batches) await retryLater(db, batch, options);
    return;
  }
  if (
    error instanceof ZendeskRecordInvalidError ||
    error instanceof ZendeskRecordNotFoundError ||
    error instanceof ZendeskForbiddenError
  ) {
    const closed = isClosedRefusal(error)
      ? 'known'
      : error instanceof ZendeskRecordInvalidError
        ? 'maybe'
        : 'no';
    for (const batch of batches) await refuse(ctx, db, batch, error.message, closed, options);
    return;
  }
  throw error;
}

/** Whether the update carries a value for the Status drop-down. */
function carriesStatus(ctx: AccountContext, batch: TicketBatch): boolean {
  return (
    ctx.fields.status !== null &&
    (batch.input.custom_fields ?? []).some((field) => field.id === ctx.fields.status)
  );
}

/**
 * The update without its Status value when Zendesk refused that value (422 naming the field: the
 * drop-down lacks the option, say an admin removed it), so the note and the rest still go; a
 * rerun of setup adds the option back. Undefined for any other refusal.
 */
function withoutRefusedStatus(
  ctx: AccountContext,
  batch: TicketBatch,
  error: unknown,
): TicketBatch | undefined {
  if (!(error instanceof ZendeskRecordInvalidError) || !carriesStatus(ctx, batch)) return undefined;
  if (!Object.hasOwn(error.fieldErrors, `custom_field_${ctx.fields.status}`)) return undefined;
  const { custom_fields: fields = [], ...rest } = batch.input;
  const kept = fields.filter((field) => field.id !== ctx.fields.status);
  return { ...batch, input: { ...rest, ...(kept.length ? { custom_fields: kept } : {}) } };
}

async function writeOne(
  ctx: AccountContext,
  db: TDatabase,
  batch: TicketBatch,
  options: DrainOptions,
): Promise<number> {
  try {
    await ctx.zendesk.tickets.update(Number(batch.ticketId), batch.input, { maxRetries: 0 });
  } catch (error) {
    const without = withoutRefusedStatus(ctx, batch, error);
    if (without) return writeOne(ctx, db, without, options);
    await handleError(ctx, db, [batch], error, options);
    return 0;
  }
  await markWritten(db, batch, options.now(), options);
  return 1;
}

/** Queues the pass's update_many; null when Zendesk refused it (handled: paused, retried or refused). */
async function queueMany(
  ctx: AccountContext,
  db: TDatabase,
  batches: TicketBatch[],
  options: DrainOptions,
): Promise<TJobStatus | null> {
  const items: TTicketBulkUpdateItem[] = batches.map((batch) => ({
    id: Number(batch.ticketId),
    ...batch.input,
  }));
  try {
    const job = await ctx.zendesk.tickets.updateMany(items, { maxRetries: 0 });
    // the lease runs to the job's wait: no pass touches these changes while the job may run
    await db.prisma.pendingTicketChange.updateMany({
      where: { id: { in: batches.flatMap((batch) => batch.rows.map((row) => row.id)) } },
      data: {
        writeJobId: job.id,
        readyAt: new Date(
          options.now().getTime() + jobMaxWaitMs(options) + (options.leaseMs ?? 45_000),
        ),
      },
    });
    return job;
  } catch (error) {
    await handleError(ctx, db, batches, error, options);
    return null;
  }
}

function jobMaxWaitMs(options: DrainOptions): number {
  return options.jobMaxWaitMs ?? 60_000;
}

/** Waits for the job and records each ticket's result: the number of tickets written. */
async function settleMany(
  ctx: AccountContext,
  db: TDatabase,
  batches: TicketBatch[],
  job: TJobStatus,
  options: DrainOptions,
): Promise<number> {
  let results: TJobStatusResult[];
  try {
    const done = await ctx.zendesk.jobStatuses.waitFor(job, {
      pollIntervalMs: options.jobPollIntervalMs ?? 500,
      maxWaitMs: jobMaxWaitMs(options),
    });
    results = done.results ?? [];
    if (done.status !== 'completed' && results.length === 0) {
      // failed or killed without per-ticket results: whatever landed is found by its reference
      for (const batch of batches) await retryLater(db, batch, options);
      return 0;
    }
  } catch (error) {
    // the job's status could not be read: the changes keep the job's id, so no pass writes them
    // again while the job may still run
    await handleError(ctx, db, batches, error, options);
    return 0;
  }
  const succeeded: TicketBatch[] = [];
  let written = 0;
  for (const [index, batch] of batches.entries()) {
    const result =
      results.find((r) => r.id === Number(batch.ticketId)) ??
      results.find((r) => r.index === index);
    if (result && isJobResultSuccess(result)) {
      succeeded.push(batch);
    } else if (
      result &&
      /RecordInvalid/i.test(result.error ?? '') &&
      !isClosedResult(result) &&
      carriesStatus(ctx, batch)
    ) {
      // A bulk result names no field: alone, the ticket's 422 says whether the Status value was
      // refused (then it goes without it), and any other refusal is handled as it would be here.
      written += await writeOne(ctx, db, batch, options);
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

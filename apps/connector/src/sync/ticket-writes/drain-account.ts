// One pass of an account's writer: picks the tickets whose changes are ready, within the account's
// and each ticket's budget, and writes each ticket's waiting changes as one update; two or more
// tickets go in one update_many. A 429 pauses the whole account for its Retry-After and loses
// nothing. Before a request the changes get the write's reference (the update's audit metadata
// carries it, write-metadata.ts), so after a crash, a 5xx or a timeout the next pass reads the
// ticket's audits, finds the write if Zendesk committed it, and only writes again when it did not.
// An update_many item's metadata is not documented to reach the audit, and an account whose token
// lacks the global `read` scope cannot read audits: those writes also end their note with the short
// reference line, looked for in the comments' text. The reference is also a lease: until the request can
// have finished, no pass of any instance touches those changes, so a writer that lost its lease or
// is still waiting for Zendesk is never raced; the lease names the instance that sent it, and is
// void at once when that instance is dead (worker/instance-liveness.ts). A pass never waits for an
// update_many job: it records the job, and a later pass reads its status and settles its tickets.
import { TICKET_WRITE_QUEUE } from '../../jobs/ticket-write-queue';
import { randomUUID } from 'node:crypto';
import { withSqlTransaction, type TDatabase } from '@incident-desk/db';
import {
  isJobFinished,
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
import { isUnansweredZendeskRequest } from '../service-failure';
import { instanceAliveSql } from '../../worker/instance-liveness';
import { recordOwnNotesSql } from '../echo-ledger';
import { coalesce, type WaitingChange } from './coalesce';
import { changesThatFit, textCarriesRef, writeMetadataOf } from './write-metadata';
import { followUpClosedTicket, isClosedRefusal, isClosedResult } from './follow-up-closed-ticket';
import {
  logRequest,
  pauseAccount,
  readBudget,
  ticketsBlockedUntil,
  type WriteLimits,
} from './write-budget';
import { renewWriterLease } from './writer-lease';

export interface DrainOptions {
  now: () => Date;
  limits: WriteLimits;
  /** Write changes still inside their wait (the inline path of tests and one-off tools). */
  ignoreReadyAt?: boolean;
  /** After a 5xx or a timeout, how long a ticket waits before its note is looked for. Default 5 000 ms. */
  unsureRetryMs?: number;
  /** Retry-After assumed when a 429 names none. Default 60 s. */
  defaultRetryAfterSeconds?: number;
  /** How soon after queuing (and between reads) an update_many job's status is read. Default 1 000 ms. */
  jobPollIntervalMs?: number;
  /**
   * Follow an update_many job to its results within the pass, for at most jobMaxWaitMs (default
   * 60 s): the inline path of tests and one-off tools. The account writer's passes never wait.
   */
  waitForJobs?: boolean;
  jobMaxWaitMs?: number;
  /**
   * How long changes sent in a request stay untouched by other passes: longer than the Zendesk
   * client's per-attempt timeout. Default 45 000 ms. A queued update_many's changes stay untouched
   * while its job is queued or working.
   */
  leaseMs?: number;
  /**
   * The instance writing, when a shared writer runs the pass: what it sends names it, what dead
   * instances were sending is resumed, and the account's writer lease is renewed (or found lost)
   * in the transaction that marks the pass's writes. Without it (inline path) none of that applies.
   */
  writer?: PassWriter;
  /** Told after each ticket write Zendesk accepted: its changes and when it was written (metrics). */
  onWritten?: (changes: readonly WaitingChange[], at: Date) => void;
  /** Told about every failed request of the account's writer (write-health-recorder.ts). */
  onWriteFailure?: (accountId: string, error: unknown) => void;
  /** Told after a pass in which Zendesk accepted a write of the account (write health). */
  onWriteSucceeded?: (accountId: string) => void;
}

export interface PassWriter {
  /** connector_instance.id of this process. */
  instanceId: string;
  /** Heartbeats at or before this are dead ones (InstanceLiveness.aliveCutoff()). */
  aliveCutoff: () => Date;
  /** False while this process's own heartbeat is late: it sends nothing others may take over. */
  heartbeatFresh?: () => boolean;
  /** Length of the account's writer lease renewed when the pass marks its writes. */
  leaseMs?: number;
}

export interface DrainResult {
  /** Tickets updated in this pass (a finished update_many's included). */
  written: number;
  /** Requests sent (updates and update_many). */
  requests: number;
  /** When something waiting may next be written; null when nothing waits. */
  nextAt: Date | null;
  /** Changes in flight of dead instances whose lease this pass voided, per instance. */
  resumed: { instance: string; changes: number }[];
  /** The account's writer lease went to another instance before anything was sent. */
  leaseLost: boolean;
}

/** The pass outlived the account's writer lease, or another pass marked the same changes first. */
class PassOvertaken extends Error {
  override name = 'PassOvertaken';
}

type SentChange = WaitingChange & { writeRef: string | null; writeRefInNote: boolean };

interface TicketBatch {
  ticketId: bigint;
  /** With the reference an earlier attempt gave them (null: never sent). */
  rows: SentChange[];
  writeRef: string;
  /** The note ends with the short reference line (the audit will not be read back). */
  refInNote: boolean;
  dashboardUrl: string | null | undefined;
  body: string | undefined;
  input: ReturnType<typeof coalesce>['input'];
}

/** The batch's update, built again with the reference in the note or not. */
function withRefInNote(ctx: AccountContext, batch: TicketBatch, refInNote: boolean): TicketBatch {
  if (batch.refInNote === refInNote) return batch;
  const { body, input } = coalesce(ctx, batch.rows, batch.writeRef, {
    dashboardUrl: batch.dashboardUrl,
    refInNote,
  });
  return { ...batch, refInNote, body, input };
}

const BATCH_MAX = 100;

export async function drainAccountOnce(
  ctx: AccountContext,
  db: TDatabase,
  options: DrainOptions,
): Promise<DrainResult> {
  const now = options.now();
  const accountId = ctx.accountId;
  const resumed = options.writer
    ? await resumeDeadInstancesChanges(db, accountId, options.writer, now)
    : [];
  const done = (written: number, requests: number, nextAt: Date | null): DrainResult => ({
    written,
    requests,
    nextAt,
    resumed,
    leaseLost: false,
  });
  const budget = await readBudget(db, accountId, options.limits, now);
  if (budget.pausedUntil) return done(0, 0, budget.pausedUntil);
  const settled = await settleQueuedJobs(ctx, db, now, options);

  const waiting = await db.prisma.pendingTicketChange.groupBy({
    by: ['ticketId'],
    where: { accountId, writtenAt: null, failedReason: null },
    _min: { readyAt: true, createdAt: true },
  });
  if (waiting.length === 0) return done(settled, 0, null);
  const leased = await leasedTickets(db, accountId, now, options.ignoreReadyAt ?? false);
  const ready = waiting
    .filter(
      (w) =>
        !leased.has(w.ticketId) &&
        (options.ignoreReadyAt || w._min.readyAt!.getTime() <= now.getTime()),
    )
    .sort((a, b) => a._min.createdAt!.getTime() - b._min.createdAt!.getTime());
  let nextAt: Date | null = earliest([
    ...waiting
      .filter((w) => !ready.includes(w) && !leased.has(w.ticketId))
      .map((w) => w._min.readyAt!),
    ...leased.values(),
  ]);
  if (ready.length === 0) return done(settled, 0, nextAt);

  const blocked = await ticketsBlockedUntil(
    db,
    accountId,
    ready.map((w) => w.ticketId),
    options.limits,
    now,
  );
  nextAt = earliest([...(nextAt ? [nextAt] : []), ...blocked.values()]);
  const eligible = ready.filter((w) => !blocked.has(w.ticketId)).map((w) => w.ticketId);
  if (eligible.length === 0) return done(settled, 0, nextAt);
  if (options.writer?.heartbeatFresh && !options.writer.heartbeatFresh()) {
    // others may soon count this instance dead and settle what it sends: send nothing now
    return done(settled, 0, new Date(now.getTime() + 1_000));
  }

  const prepared = await prepareTickets(ctx, db, eligible.slice(0, BATCH_MAX), options);
  if (prepared.length === 0) return done(settled, 0, now);

  // One ticket: a single update while the account's Update Ticket minute has room. Several, or
  // one when that minute is spent: update_many (another endpoint; only the per-ticket budget and
  // the job limit apply).
  const bulk = prepared.length > 1 || budget.accountFree === 0;
  const batches = bulk ? prepared.map((batch) => withRefInNote(ctx, batch, true)) : prepared;
  // Marked before the request: the comment trigger the update fires may arrive first (echo
  // suppression), and a retry must know which reference to look for. A bulk write names its
  // holder only once its job is known: until then nobody could tell whether the job will still
  // run, so its lease is waited out even when its holder dies.
  try {
    await markSending(
      db,
      accountId,
      batches,
      {
        until: new Date(now.getTime() + (options.leaseMs ?? 45_000)),
        holder: bulk ? null : (options.writer?.instanceId ?? null),
      },
      options.writer,
      now,
    );
  } catch (error) {
    if (error instanceof PassOvertaken) return { ...done(settled, 0, null), leaseLost: true };
    throw error;
  }
  await logRequest(
    db,
    accountId,
    batches.map((b) => b.ticketId),
    bulk,
    options.now(),
  );
  // more may be waiting: the caller runs another pass soon
  if (!bulk) {
    const written = await writeOne(ctx, db, batches[0]!, options);
    return done(settled + written, 1, options.now());
  }
  const job = await queueMany(ctx, db, batches, options);
  if (job === null || !options.waitForJobs) return done(settled, 1, options.now());
  const written = await waitForJob(ctx, db, batches, job, options);
  return done(settled + written, 1, options.now());
}

/**
 * Changes a dead instance was sending wait no longer for their lease: they are due now, and the
 * pass settles them as any earlier attempt (the job's status, else the reference on the ticket).
 */
async function resumeDeadInstancesChanges(
  db: TDatabase,
  accountId: string,
  writer: PassWriter,
  now: Date,
): Promise<{ instance: string; changes: number }[]> {
  const rows = await db.prisma.$queryRawUnsafe<{ holder: string }[]>(
    // `sent` is the row before the update: RETURNING names the holder it had
    `UPDATE pending_ticket_change AS change
        SET ready_at = $2, write_holder = NULL
       FROM pending_ticket_change AS sent
      WHERE sent.id = change.id AND change.account_id = $1::uuid
        AND change.written_at IS NULL AND change.failed_reason IS NULL
        AND change.write_ref IS NOT NULL AND change.ready_at > $2
        AND change.write_holder IS NOT NULL AND change.write_holder <> $3
        AND NOT ${instanceAliveSql('change.write_holder', '$4')}
     RETURNING sent.write_holder AS holder`,
    accountId,
    now,
    writer.instanceId,
    writer.aliveCutoff(),
  );
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.holder, (counts.get(row.holder) ?? 0) + 1);
  return [...counts].map(([instance, changes]) => ({ instance, changes }));
}

/**
 * The references and leases of a pass's writes, and the notes they carry (own-note echo), in one
 * transaction that also renews the account's writer lease: when another instance took the lease
 * over, or changed one of the rows since this pass read them, nothing is marked (PassOvertaken).
 */
async function markSending(
  db: TDatabase,
  accountId: string,
  batches: readonly TicketBatch[],
  lease: { until: Date; holder: string | null },
  writer: PassWriter | undefined,
  now: Date,
): Promise<void> {
  const rows = batches.flatMap((batch) =>
    batch.rows.map((row) => ({ row, ref: batch.writeRef, inNote: batch.refInNote })),
  );
  const notes = batches.filter((batch) => batch.body !== undefined);
  await withSqlTransaction(db, async (sql) => {
    if (
      writer &&
      !(await renewWriterLease(sql, {
        accountId,
        holder: writer.instanceId,
        now,
        ...(writer.leaseMs === undefined ? {} : { leaseMs: writer.leaseMs }),
      }))
    )
      throw new PassOvertaken('the account writer lease is held by another instance');
    const { rows: marked } = await sql.executeSql(
      `UPDATE pending_ticket_change AS change
          SET write_ref = sending.ref, write_ref_in_note = sending.in_note, write_job_id = NULL,
              ready_at = $4, write_holder = $5
         FROM unnest($1::uuid[], $2::text[], $3::text[], $6::boolean[])
                AS sending(id, ref, previous_ref, in_note)
        WHERE change.id = sending.id
          AND change.written_at IS NULL AND change.failed_reason IS NULL
          AND change.write_job_id IS NULL
          AND change.write_ref IS NOT DISTINCT FROM sending.previous_ref
       RETURNING change.id`,
      [
        rows.map(({ row }) => row.id),
        rows.map(({ ref }) => ref),
        rows.map(({ row }) => row.writeRef),
        lease.until.toISOString(),
        lease.holder,
        rows.map(({ inNote }) => inNote),
      ],
    );
    if (marked.length !== rows.length)
      throw new PassOvertaken('another pass changed these ticket changes first');
    await recordOwnNotesSql(
      sql,
      accountId,
      notes.map((batch) => ({ ticketId: batch.ticketId, body: batch.body! })),
    );
  });
}

/**
 * Tickets with changes a request is still carrying, and when their lease ends: changes an
 * update_many job carries stay with it until a pass reads that the job finished (settleQueuedJobs);
 * those of a single update until their lease ends (ignored by the inline path).
 */
async function leasedTickets(
  db: TDatabase,
  accountId: string,
  now: Date,
  ignoreReadyAt: boolean,
): Promise<Map<bigint, Date>> {
  const rows = await db.prisma.pendingTicketChange.groupBy({
    by: ['ticketId'],
    where: {
      accountId,
      writtenAt: null,
      failedReason: null,
      writeRef: { not: null },
      OR: [{ writeJobId: { not: null } }, ...(ignoreReadyAt ? [] : [{ readyAt: { gt: now } }])],
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
  const batches: TicketBatch[] = [];
  const settled: string[] = [];
  for (const ticketId of ticketIds) {
    let waiting = rowsOf.get(ticketId) ?? [];
    // a job queued since the pass looked at leases: only its status says what landed
    if (waiting.some((row) => row.writeJobId !== null)) continue;
    if (waiting.some((row) => row.writeRef !== null)) {
      waiting = await settleEarlierAttempts(ctx, db, ticketId, waiting, options);
    }
    if (waiting.length === 0) continue;
    const writeRef = newWriteRef(waiting);
    // what the audit metadata can carry; the rest waits for the next write
    waiting = waiting.slice(
      0,
      changesThatFit(
        writeRef,
        waiting.map((row) => row.eventRef),
      ),
    );
    const refInNote = !ctx.canReadAudits;
    const dashboardUrl = dashboardOf.get(ticketId);
    const { body, input } = coalesce(ctx, waiting, writeRef, { dashboardUrl, refInNote });
    if (Object.keys(input).length === 0) {
      settled.push(...waiting.map((row) => row.id));
      continue;
    }
    batches.push({ ticketId, rows: waiting, writeRef, refInNote, dashboardUrl, body, input });
  }
  if (settled.length > 0)
    await db.prisma.pendingTicketChange.updateMany({
      where: { id: { in: settled } },
      data: { writtenAt: options.now() },
    });
  return batches;
}

/**
 * A fresh reference for a ticket's write whose short form no earlier attempt on the ticket has
 * (the short line is matched by its 8 hex digits).
 */
function newWriteRef(rows: readonly { writeRef: string | null }[]): string {
  const taken = new Set(rows.flatMap((row) => (row.writeRef ? [shortOf(row.writeRef)] : [])));
  let ref = randomUUID();
  while (taken.has(shortOf(ref))) ref = randomUUID();
  return ref;
}

function shortOf(ref: string): string {
  return ref.replace(/-/g, '').slice(0, 8);
}

/**
 * A ticket whose changes an earlier request carried (no job pending): the changes still to write,
 * without those whose write landed. When the write's audit must be read and cannot be (the token
 * lost the global `read` scope), nothing is written again: the changes wait, and the failure is
 * told to write health.
 */
async function settleEarlierAttempts<
  T extends { id: string; writeRef: string | null; writeRefInNote: boolean },
>(
  ctx: AccountContext,
  db: TDatabase,
  ticketId: bigint,
  rows: T[],
  options: DrainOptions,
): Promise<T[]> {
  const attempted = new Map<string, boolean>();
  for (const row of rows)
    if (row.writeRef !== null)
      attempted.set(row.writeRef, (attempted.get(row.writeRef) ?? true) && row.writeRefInNote);
  let landed: Set<string>;
  try {
    landed = await refsOnTicket(ctx, Number(ticketId), attempted);
  } catch (error) {
    if (!(error instanceof ZendeskForbiddenError)) throw error;
    options.onWriteFailure?.(ctx.accountId, error);
    await db.prisma.pendingTicketChange.updateMany({
      where: { id: { in: rows.map((row) => row.id) }, writtenAt: null },
      data: { readyAt: new Date(options.now().getTime() + (options.unsureRetryMs ?? 5_000)) },
    });
    return [];
  }
  if (landed.size === 0) return rows;
  await db.prisma.pendingTicketChange.updateMany({
    where: { accountId: ctx.accountId, ticketId, writtenAt: null, writeRef: { in: [...landed] } },
    data: { writtenAt: options.now() },
  });
  return rows.filter((row) => row.writeRef === null || !landed.has(row.writeRef));
}

/**
 * The references (each with whether its note carries it) that landed on the ticket: read from
 * its audits (metadata, and the comments' text) when any reference lives only in metadata or the
 * token can read audits, else from its comments.
 */
async function refsOnTicket(
  ctx: AccountContext,
  ticketId: number,
  refs: ReadonlyMap<string, boolean>,
): Promise<Set<string>> {
  const found = new Set<string>();
  const lookFor = (text: string) => {
    for (const ref of refs.keys()) if (textCarriesRef(text, ref)) found.add(ref);
  };
  if (ctx.canReadAudits || [...refs.values()].some((inNote) => !inNote)) {
    for await (const audit of ctx.zendesk.tickets.audits.list(ticketId)) {
      const ref = writeMetadataOf(audit.metadata?.custom)?.ref;
      if (ref !== undefined && refs.has(ref)) found.add(ref);
      for (const event of audit.events)
        if (event.type === 'Comment' && typeof event.body === 'string') lookFor(event.body);
      if (found.size === refs.size) break;
    }
    return found;
  }
  const page = await ctx.zendesk.tickets.comments.list(ticketId, {
    sortOrder: 'desc',
    includeUsers: false,
  });
  for (const comment of page.getItems()) lookFor(comment.body ?? comment.plain_body ?? '');
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
    // Untouched by other passes until the job's status is next read (inline: until the wait is
    // over); from now on the job says what happened, so the lease names its holder.
    const leaseMs = options.waitForJobs
      ? jobMaxWaitMs(options) + (options.leaseMs ?? 45_000)
      : jobPollMs(options);
    await db.prisma.pendingTicketChange.updateMany({
      where: { id: { in: batches.flatMap((batch) => batch.rows.map((row) => row.id)) } },
      data: {
        writeJobId: job.id,
        readyAt: new Date(options.now().getTime() + leaseMs),
        writeHolder: options.writer?.instanceId ?? null,
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

function jobPollMs(options: DrainOptions): number {
  return options.jobPollIntervalMs ?? 1_000;
}

/** The inline path: waits for the job, then records each ticket's result (tickets written). */
async function waitForJob(
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
async function settleQueuedJobs(
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
      const refInNote = ticketRows[0]!.writeRefInNote;
      const dashboardUrl = dashboardOf.get(ticketId);
      const { body, input } = coalesce(ctx, ticketRows, writeRef, { dashboardUrl, refInNote });
      return { ticketId, rows: ticketRows, writeRef, refInNote, dashboardUrl, body, input };
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

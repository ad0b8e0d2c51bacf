// One pass of an account's writer: picks the tickets whose changes are ready, within the account's
// and each ticket's budget, and writes each ticket's waiting changes as one update; two or more
// tickets go in one update_many. A 429 pauses the whole account for its Retry-After and loses
// nothing. Before a request the changes get the write's reference (the update's audit metadata
// carries it, write-metadata.ts), so after a crash, a 5xx or a timeout the next pass reads the
// ticket's audits, finds the write if Zendesk committed it, and only writes again when it did not.
// An update_many item's metadata is not documented to reach the audit, and an account whose token
// lacks the global `read` scope cannot read audits: those writes are recognised by their note
// instead, by identity (its author, its channel, its time, the exact note recorded before sending;
// note-identity.ts), and the note carries no reference. The reference is also a lease: until the request can
// have finished, no pass of any instance touches those changes, so a writer that lost its lease or
// is still waiting for Zendesk is never raced; the lease names the instance that sent it, and is
// void at once when that instance is dead (worker/instance-liveness.ts). A pass never waits for an
// update_many job: it records the job, and a later pass reads its status and settles its tickets.
// The parts: which tickets are writable (writable-tickets.ts), their updates (prepare-tickets.ts,
// earlier-attempts.ts), the changes' leases (change-leases.ts), the requests (send-ticket-writes.ts),
// update_many jobs (update-many-jobs.ts) and what an answer records (write-outcome.ts).
import type { TDatabase } from '@incident-desk/db';
import type { AccountContext } from '../../accounts';
import { markSending, PassOvertaken, resumeDeadInstancesChanges } from './change-leases';
import type { DrainOptions, DrainResult } from './drain-options';
import { prepareTickets } from './prepare-tickets';
import { queueMany, writeOne } from './send-ticket-writes';
import { settleQueuedJobs, waitForJob } from './update-many-jobs';
import { writableTickets } from './writable-tickets';
import { logRequest, nameRequestByJob, readBudget, releaseTicketBudget } from './write-budget';

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

  const { eligible, nextAt } = await writableTickets(db, accountId, now, options);
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
  // an update_many item's metadata is not documented to reach its audit: found by its note
  const batches = bulk ? prepared.map((batch) => ({ ...batch, foundByNote: true })) : prepared;
  // Marked before the request: a retry must know which reference to look for (the sender records
  // the notes' echoes right before it sends, send-ticket-update.ts). A bulk write names its
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
  const requestId = await logRequest(
    db,
    accountId,
    batches.map((b) => b.ticketId),
    bulk,
    options.now(),
  );
  // more may be waiting: the caller runs another pass soon
  if (!bulk) {
    const written = await writeOne(ctx, db, batches[0]!, options);
    if (written === 0) await releaseTicketBudget(db, accountId, requestId);
    return done(settled + written, 1, options.now());
  }
  const job = await queueMany(ctx, db, batches, options);
  if (job === null) await releaseTicketBudget(db, accountId, requestId);
  else await nameRequestByJob(db, accountId, requestId, job.id);
  if (job === null || !options.waitForJobs) return done(settled, 1, options.now());
  const written = await waitForJob(ctx, db, batches, job, options);
  return done(settled + written, 1, options.now());
}

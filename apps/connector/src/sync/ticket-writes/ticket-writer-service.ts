// This instance's account writers. Whichever instance holds an account's writer lease (a row
// renewed at each pass, writer-lease.ts; nothing held between passes, no connection kept) writes
// the account's waiting ticket changes, one short pass at a time: resume what a dead instance was
// sending, settle what earlier passes sent, then write what is ready under the budgets. At most
// `concurrency` passes run at once and accounts take turns (account-pass-scheduler.ts). Jobs
// signal the writer after recording a change; a sweep every second finds the accounts with
// waiting changes whose lease is free (changes recorded on another instance, or left by one that
// stopped or died) and when each may next be written.
import type { TDatabase } from '@incident-desk/db';
import type { AccountContext } from '../../accounts';
import type { TakeoverKind } from '../../metrics';
import type { TicketWriterSignal } from './ticket-writer-signal';
import { instanceAliveSql } from '../../worker';
import { startAccountPassScheduler, type PassOutcome } from './account-pass-scheduler';
import { drainAccountOnce } from './drain-account';
import type { DrainOptions, PassWriter } from './drain-options';
import { purgeOldBudget, ZENDESK_WRITE_LIMITS, type WriteLimits } from './write-budget';
import { releaseWriterLease, takeWriterLease, WRITER_LEASE_MS } from './writer-lease';

export interface TicketWriterService extends TicketWriterSignal {
  /** Resolves when no pass of this process is running (tests). */
  idle(): Promise<void>;
  /** Runs no more passes, waits for those running, and lets this instance's leases go. */
  stop(): Promise<void>;
}

/** This process as a writer: its instance id and what it knows of the others' heartbeats. */
type WriterInstance = Omit<PassWriter, 'leaseMs'>;

export interface TicketWriterOptions {
  db: TDatabase;
  contextFor: (accountId: string) => Promise<AccountContext>;
  /** InstanceLiveness fits (worker/instance-liveness.ts). */
  instance: WriterInstance;
  /** Accounts whose passes run at once in this process. Default 4. */
  concurrency?: number;
  limits?: WriteLimits;
  now?: () => Date;
  /** How often accounts with waiting changes are looked for. Default 1 000 ms. */
  sweepIntervalMs?: number;
  /** Least time between two passes of one account. Default 1 000 ms. */
  minPassIntervalMs?: number;
  /** How long the account's writer lease lasts unless a pass renews it. Default 10 000 ms. */
  leaseMs?: number;
  drain?: Partial<Omit<DrainOptions, 'now' | 'limits' | 'writer'>>;
  log?: (message: string) => void;
  /** Told of each takeover from a dead instance (metrics). */
  onTakeover?: (kind: TakeoverKind) => void;
}

export function startTicketWriter(options: TicketWriterOptions): TicketWriterService {
  const { db, instance } = options;
  const now = options.now ?? (() => new Date());
  const limits = options.limits ?? ZENDESK_WRITE_LIMITS;
  const leaseMs = options.leaseMs ?? WRITER_LEASE_MS;
  const log = options.log ?? ((message: string) => console.error(message));
  const writer: PassWriter = { ...instance, leaseMs };

  const pass: WriterPass = { options, now, limits, leaseMs, log, writer };

  const scheduler = startAccountPassScheduler({
    concurrency: options.concurrency ?? 4,
    runPass: (accountId) =>
      runAccountPass(pass, accountId, (id, until) => scheduler.ignoreUntil(id, until)),
    ...(options.minPassIntervalMs === undefined
      ? {}
      : { minPassIntervalMs: options.minPassIntervalMs }),
    onError: (accountId, error) =>
      log(
        `ticket writer for account ${accountId}: ${error instanceof Error ? error.message : String(error)}`,
      ),
  });

  let stopped = false;
  let sweeping = false;
  let lastPurge = 0;
  async function sweep(): Promise<void> {
    if (sweeping || stopped) return;
    sweeping = true;
    try {
      for (const { accountId, nextAt } of await accountsToWrite(db, instance, now()))
        scheduler.want(accountId, nextAt);
      if (Date.now() - lastPurge >= 60_000) {
        lastPurge = Date.now();
        await purgeOldBudget(db, now());
      }
    } catch (error) {
      if (!stopped)
        log(`ticket writer sweep: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      sweeping = false;
    }
  }
  const timer = setInterval(() => void sweep(), options.sweepIntervalMs ?? 1_000);
  timer.unref();

  return {
    signal: (accountId, readyAt) => scheduler.want(accountId, readyAt),
    idle: () => scheduler.idle(),
    async stop() {
      stopped = true;
      clearInterval(timer);
      await scheduler.stop();
      await db.prisma.ticketWriterLease
        .deleteMany({ where: { holder: instance.instanceId } })
        .catch(() => undefined);
    },
  };
}

/** What every pass of this process's writer is given. */
interface WriterPass {
  options: TicketWriterOptions;
  now: () => Date;
  limits: WriteLimits;
  leaseMs: number;
  log: (message: string) => void;
  writer: PassWriter;
}

/**
 * One pass of the account's writer, under its lease: taken (or found held by another live
 * instance: the account is left alone until that lease is over), renewed by the drain, and kept
 * only while the next pass comes soon.
 */
async function runAccountPass(
  pass: WriterPass,
  accountId: string,
  ignoreUntil: (accountId: string, until: Date) => void,
): Promise<PassOutcome> {
  const { options, now, limits, leaseMs, log, writer } = pass;
  const { db, instance } = options;
  const lease = await takeWriterLease(db, {
    accountId,
    holder: instance.instanceId,
    now: now(),
    leaseMs,
    aliveCutoff: instance.aliveCutoff(),
  });
  if (!lease.held) {
    // the holder sees this account's changes at its next pass; the sweep looks again once its
    // lease is over
    ignoreUntil(accountId, lease.expiresAt);
    return { nextAt: null };
  }
  if (lease.tookOverFrom !== null) {
    log(`took over writer for account ${accountId} from dead instance ${lease.tookOverFrom}`);
    options.onTakeover?.('ticket_writer');
  }
  let keep = false;
  try {
    const ctx = await options.contextFor(accountId);
    const result = await drainAccountOnce(ctx, db, { ...options.drain, now, limits, writer });
    if (result.written > 0) options.drain?.onWriteSucceeded?.(accountId);
    for (const { instance: dead, changes } of result.resumed) {
      log(`resumed ${changes} changes in flight of dead instance ${dead} (account ${accountId})`);
      options.onTakeover?.('changes_in_flight');
    }
    if (result.leaseLost) return { nextAt: null };
    // kept while the next pass comes before the lease runs out; else any instance may take it
    keep = result.nextAt !== null && result.nextAt.getTime() - now().getTime() < leaseMs / 2;
    return { nextAt: result.nextAt };
  } catch (error) {
    // e.g. the account needs re-authorisation: its write health says so; the scheduler backs off
    options.drain?.onWriteFailure?.(accountId, error);
    throw error;
  } finally {
    if (!keep) await releaseWriterLease(db, accountId, instance.instanceId).catch(() => undefined);
  }
}

/**
 * Accounts with waiting changes that no other live instance holds, and when each may next have
 * something to write: its earliest change's ready time (now for changes a dead instance was
 * sending), not before a 429's pause ends.
 */
async function accountsToWrite(
  db: TDatabase,
  instance: WriterInstance,
  now: Date,
): Promise<{ accountId: string; nextAt: Date }[]> {
  const rows = await db.prisma.$queryRawUnsafe<{ account_id: string; next_at: Date }[]>(
    `SELECT waiting.account_id, GREATEST(waiting.next_at, pause.paused_until) AS next_at
       FROM (SELECT change.account_id,
                    min(CASE WHEN change.write_holder IS NOT NULL
                              AND NOT ${instanceAliveSql('change.write_holder', '$3')}
                             THEN LEAST(change.ready_at, $2) ELSE change.ready_at END) AS next_at
               FROM pending_ticket_change AS change
              WHERE change.written_at IS NULL AND change.failed_reason IS NULL
                AND NOT EXISTS (
                  SELECT 1 FROM ticket_writer_lease AS lease
                   WHERE lease.account_id = change.account_id AND lease.holder <> $1
                     AND lease.expires_at > $2 AND ${instanceAliveSql('lease.holder', '$3')})
              GROUP BY change.account_id) AS waiting
       LEFT JOIN ticket_write_pause AS pause ON pause.account_id = waiting.account_id`,
    instance.instanceId,
    now,
    instance.aliveCutoff(),
  );
  return rows.map((row) => ({ accountId: row.account_id, nextAt: new Date(row.next_at) }));
}

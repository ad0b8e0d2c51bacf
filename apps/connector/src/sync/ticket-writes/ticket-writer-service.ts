// The one writer per account: whichever instance holds the account's advisory lock (PostgreSQL
// session lock on a connection kept while it writes; on PGlite the one process) drains the
// account's waiting ticket changes, sleeping until the budget, a 429's pause or a change's wait
// allows the next write. Jobs signal it after recording a change; a sweep every second also picks
// up accounts with waiting changes, so changes recorded on another instance, or left by an
// instance that died, are written without a signal.
import { withAdvisoryLock, type TDatabase } from '@incident-desk/db';
import type { AccountContext } from '../../accounts/account-context';
import { drainAccountOnce, type DrainOptions } from './drain-account';
import { purgeOldBudget, ZENDESK_WRITE_LIMITS, type WriteLimits } from './write-budget';

export interface TicketWriterSignal {
  /** A change for the account was recorded: write it when the budget allows. */
  signal(accountId: string): void;
}

export interface TicketWriterService extends TicketWriterSignal {
  /** Resolves when no account is being drained by this process (tests). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface TicketWriterOptions {
  db: TDatabase;
  contextFor: (accountId: string) => Promise<AccountContext>;
  limits?: WriteLimits;
  now?: () => Date;
  /** How often accounts with waiting changes are looked for. Default 1 000 ms. */
  sweepIntervalMs?: number;
  /** Longest sleep between passes (a signal wakes it earlier). Default 1 000 ms. */
  maxSleepMs?: number;
  drain?: Partial<Omit<DrainOptions, 'now' | 'limits'>>;
  log?: (message: string) => void;
}

const LOCK_NAMESPACE = 'incident-desk:ticket-writer:';

export function startTicketWriter(options: TicketWriterOptions): TicketWriterService {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const limits = options.limits ?? ZENDESK_WRITE_LIMITS;
  const maxSleepMs = options.maxSleepMs ?? 1_000;
  const log = options.log ?? ((message: string) => console.error(message));
  const running = new Map<string, Promise<void>>();
  const signalled = new Set<string>();
  const wakers = new Map<string, () => void>();
  const backoffUntil = new Map<string, number>();
  let stopped = false;

  async function withWriterLock(accountId: string, work: () => Promise<void>): Promise<void> {
    // when another instance (or loop) is this account's writer, it sees our changes at its next pass
    await withAdvisoryLock(db, `${LOCK_NAMESPACE}${accountId}`, 'try', work);
  }

  function sleep(accountId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        wakers.delete(accountId);
        resolve();
      }
      wakers.set(accountId, done);
    });
  }

  async function drain(accountId: string): Promise<void> {
    await withWriterLock(accountId, async () => {
      while (!stopped) {
        signalled.delete(accountId);
        const ctx = await options.contextFor(accountId);
        const result = await drainAccountOnce(ctx, db, { ...options.drain, now, limits });
        if (result.written > 0) options.drain?.onWriteSucceeded?.(accountId);
        if (result.nextAt === null) {
          if (signalled.has(accountId)) continue;
          return;
        }
        const wait = Math.min(maxSleepMs, Math.max(0, result.nextAt.getTime() - now().getTime()));
        if (wait > 0 && !signalled.has(accountId)) await sleep(accountId, wait);
      }
    });
  }

  function run(accountId: string): void {
    if (stopped) return;
    if (running.has(accountId)) {
      signalled.add(accountId);
      wakers.get(accountId)?.();
      return;
    }
    if ((backoffUntil.get(accountId) ?? 0) > Date.now()) return;
    const task = drain(accountId)
      .catch((error: unknown) => {
        // e.g. the account needs re-authorisation: its changes wait, the sweep tries again later
        backoffUntil.set(accountId, Date.now() + 5_000);
        options.drain?.onWriteFailure?.(accountId, error);
        log(
          `ticket writer for account ${accountId}: ${error instanceof Error ? error.message : String(error)}`,
        );
      })
      .finally(() => {
        running.delete(accountId);
        if (signalled.has(accountId) && !stopped) run(accountId);
      });
    running.set(accountId, task);
  }

  let sweeping = false;
  let lastPurge = 0;
  async function sweep(): Promise<void> {
    if (sweeping || stopped) return;
    sweeping = true;
    try {
      const accounts = await db.prisma.pendingTicketChange.groupBy({
        by: ['accountId'],
        where: { writtenAt: null, failedReason: null },
      });
      for (const { accountId } of accounts) if (!running.has(accountId)) run(accountId);
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
    signal: run,
    async idle() {
      while (running.size > 0) await Promise.all([...running.values()]);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      for (const wake of wakers.values()) wake();
      await Promise.all([...running.values()]);
    },
  };
}

// Runs the sync handlers on pg-boss jobs. A handler that throws is retried with backoff; on its last
// attempt, or when it reports a permanent failure, the job is recorded as a SyncFailure (shown to
// admins with a retry) and completed, because a failed job would hold back every later job of the
// same ticket or incident in a key_strict_fifo queue. A handler that must wait for another system
// (JobDeferral, or a 429) hands its job back for the delay instead of waiting in its slot; the wait
// is not a failed attempt. Each account runs at most `accountConcurrency` jobs of a queue at once
// across all instances, so one account's backlog never holds every slot.
import type { Job, JobWithMetadata, PgBoss, TDatabase } from '@incident-desk/db';
import {
  AccountUnavailableError,
  type AccountContext,
  type AccountContextProvider,
} from '../accounts/account-context';
import { deferralOf } from '../jobs/job-deferral';
import { withLogContext } from '../log/log-context';
import { logger as processLogger, type Logger } from '../log/logger';
import type { SyncOutcome } from '../sync/job-outcome';
import { handBack, priorFailures, retryDelayMs, type FailurePolicy } from './hand-back';
import { SYNC_QUEUES, type SyncQueue } from './queues';

export type SyncHandler = (
  ctx: AccountContext,
  data: unknown,
  job: Job<unknown>,
) => Promise<SyncOutcome>;

export interface WorkerOptions {
  boss: PgBoss;
  db: TDatabase;
  accounts: AccountContextProvider;
  handlers: Record<SyncQueue, SyncHandler>;
  /** Jobs processed at once per queue in this process. Default 4. */
  concurrency?: number;
  /** Jobs of one account processed at once per queue, across every instance. Default 2. */
  accountConcurrency?: number;
  /** Failed attempts before a job is recorded as a sync failure, and the first retry's delay. */
  failures?: Partial<FailurePolicy>;
  pollingIntervalSeconds?: number;
  onOutcome?: (queue: SyncQueue, job: Job<unknown>, outcome: SyncOutcome) => void;
  /** A run that threw: pg-boss retries it (or, past its limit, fails it). */
  onRetry?: (queue: SyncQueue, job: Job<unknown>) => void;
  /** A job handed back to wait for another system (not a failure). */
  onDeferred?: (queue: SyncQueue, job: Job<unknown>) => void;
  /** Every run: how it ended (an outcome, `retried` or `deferred`) and how long it took. */
  onRun?: (queue: SyncQueue, ended: string, seconds: number) => void;
  /** Default: the process-wide logger. */
  logger?: Logger;
}

export interface Worker {
  /**
   * `count` new jobs were committed in this process: wake as many of the queue's loops (at most
   * all) to fetch now rather than at their next poll; a busy one just fetches once more when done.
   */
  wake(queue: SyncQueue, count: number): void;
  /** Whether this process is running the job now. */
  isRunning(jobId: string): boolean;
  /** Stops taking jobs and waits for the running ones to finish (up to `timeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
}

interface JobIdentity {
  accountId?: unknown;
  requestId?: unknown;
  body?: { ticketId?: unknown };
  event?: { data?: { incidentId?: unknown } };
}

function describe(data: unknown): {
  accountId: string | null;
  requestId: string | null;
  ticketId: bigint | null;
  incidentId: string | null;
} {
  const job = (typeof data === 'object' && data !== null ? data : {}) as JobIdentity;
  const ticketId = job.body?.ticketId;
  const incidentId = job.event?.data?.incidentId;
  return {
    accountId: typeof job.accountId === 'string' ? job.accountId : null,
    requestId: typeof job.requestId === 'string' ? job.requestId : null,
    ticketId: typeof ticketId === 'number' ? BigInt(ticketId) : null,
    incidentId: typeof incidentId === 'string' ? incidentId : null,
  };
}

/** Accounts whose jobs are skipped, not retried: none of them can act until an admin acts. */
const SKIPPED_ACCOUNTS: ReadonlySet<AccountUnavailableError['reason']> = new Set([
  'unknown_account',
  'disconnected',
  'reauthorization_required',
]);

/** A job fetched past its account's share waits this long before it is fetched again. */
const ACCOUNT_SHARE_RETRY_MS = 250;

export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const { boss, db, accounts } = options;
  const logger = options.logger ?? processLogger;
  const failures: FailurePolicy = {
    retryLimit: options.failures?.retryLimit ?? 8,
    retryDelaySeconds: options.failures?.retryDelaySeconds ?? 2,
  };
  /** Jobs this process is running (the dead-job sweep leaves them alone). */
  const running = new Set<string>();
  const accountConcurrency = options.accountConcurrency ?? 2;
  /** Jobs running here per queue and account: the fetch's share is computed before concurrent fetches commit. */
  const runningByAccount = new Map<string, number>();

  async function recordFailure(queue: SyncQueue, job: Job<unknown>, reason: string): Promise<void> {
    const { accountId, ticketId, incidentId } = describe(job.data);
    if (!accountId) {
      logger.error(`${queue} job ${job.id} failed and names no account`, { reason });
      return;
    }
    // A job run again because its process died after recording the failure: still one letter.
    const recorded = await db.prisma.syncFailure.findFirst({
      where: { accountId, jobId: job.id },
      select: { id: true },
    });
    if (recorded) return;
    await db.prisma.syncFailure.create({
      data: {
        accountId,
        queue,
        jobId: job.id,
        ticketId,
        incidentId,
        reason,
        payload: job.data as object,
      },
    });
  }

  /**
   * The job's lines carry its id, queue, account and the id of the request that enqueued it (the
   * job's `requestId`), so one delivery can be followed from receipt to its outcome.
   */
  function run(queue: SyncQueue, job: JobWithMetadata<unknown>): Promise<void> {
    const { accountId, requestId } = describe(job.data);
    const context = {
      jobId: job.id,
      queue,
      ...(accountId ? { accountId } : {}),
      ...(requestId ? { reqId: requestId } : {}),
    };
    return withLogContext(context, async () => {
      const started = performance.now();
      const failed = priorFailures(job);
      const durationMs = () => Math.round(performance.now() - started);
      let ended = 'retried';
      const share = `${queue}:${accountId ?? ''}`;
      const mine = runningByAccount.get(share) ?? 0;
      if (accountId && mine >= accountConcurrency) {
        // two loops fetched for one account at once: the later one gives its job back at once
        await handBack(boss, queue, job, { delayMs: ACCOUNT_SHARE_RETRY_MS, deferred: true });
        options.onDeferred?.(queue, job);
        return;
      }
      runningByAccount.set(share, mine + 1);
      running.add(job.id);
      try {
        const outcome = await runJob(queue, job, failed);
        ended = outcome.status;
        logger.info('job finished', {
          outcome: outcome.status,
          reason: outcome.status === 'applied' ? outcome.detail : outcome.reason,
          attempt: failed + 1,
          durationMs: durationMs(),
        });
      } catch (error) {
        const deferral = deferralOf(error);
        if (deferral) {
          ended = 'deferred';
          await handBack(boss, queue, job, { delayMs: deferral.delayMs, deferred: true });
          logger.info('job deferred', {
            reason: deferral.message,
            delayMs: deferral.delayMs,
            durationMs: durationMs(),
          });
          options.onDeferred?.(queue, job);
          return;
        }
        logger.warn('job failed; it is retried', {
          error,
          attempt: failed + 1,
          durationMs: durationMs(),
        });
        options.onRetry?.(queue, job);
        await handBack(boss, queue, job, {
          delayMs: retryDelayMs(failures, failed + 1),
          deferred: false,
        }).catch(() => {
          throw error;
        });
      } finally {
        options.onRun?.(queue, ended, (performance.now() - started) / 1000);
        running.delete(job.id);
        const left = (runningByAccount.get(share) ?? 1) - 1;
        if (left > 0) runningByAccount.set(share, left);
        else runningByAccount.delete(share);
      }
    });
  }

  async function runJob(
    queue: SyncQueue,
    job: JobWithMetadata<unknown>,
    failed: number,
  ): Promise<SyncOutcome> {
    // a job queued before deferrals existed has pg-boss's own limit: it cannot be handed back past it
    const lastAttempt = failed >= failures.retryLimit || job.retryCount >= job.retryLimit;
    let outcome: SyncOutcome;
    try {
      const accountId = describe(job.data).accountId;
      if (!accountId) throw new AccountUnavailableError('(none)', 'unknown_account');
      const ctx = await accounts.forAccount(accountId, { signal: job.signal });
      outcome = await options.handlers[queue](ctx, job.data, job);
    } catch (error) {
      if (error instanceof AccountUnavailableError && SKIPPED_ACCOUNTS.has(error.reason)) {
        // A removed account's late deliveries, or the work of one that is gone from Zendesk (its
        // app uninstalled, its grant lost): nothing can act for it until an admin installs again,
        // and retrying would only ask Zendesk again for nothing.
        logger.warn(`${queue} job ${job.id} skipped`, { error });
        outcome = { status: 'skipped', reason: error.message };
      } else if (!lastAttempt) {
        throw error;
      } else if (deferralOf(error)) {
        outcome = {
          status: 'failed_permanently',
          reason: `still waiting after ${failed} failed attempts: ${deferralOf(error)!.message}`,
        };
      } else {
        outcome = {
          status: 'failed_permanently',
          reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        };
      }
    }
    if (job.signal?.aborted) {
      // pg-boss took the job back (it outran its timeout, or the worker is stopping) and has
      // already failed it for a retry: what this run ended with is not the job's outcome.
      throw new Error(`${queue} job ${job.id} was stopped before it finished`);
    }
    if (outcome.status === 'failed_permanently') await recordFailure(queue, job, outcome.reason);
    options.onOutcome?.(queue, job, outcome);
    return outcome;
  }

  // A pg-boss fetch loop waits out its polling interval after every job, found or not: with one
  // loop per job slot that caps a slot at one job per interval (2 jobs/s for 4 slots at 2 s). So
  // each slot is its own loop, and a loop that just finished a job is woken to fetch again at once;
  // only a fetch that finds nothing waits (or until a new job's NOTIFY wakes it).
  const workers: { queue: SyncQueue; id: string }[] = [];
  for (const queue of SYNC_QUEUES) {
    for (let slot = 0; slot < (options.concurrency ?? 4); slot += 1) {
      const loop: { id?: string } = {};
      const id = await boss.work(
        queue,
        {
          includeMetadata: true,
          groupConcurrency: accountConcurrency,
          pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
          // NOTIFY covers new jobs, not retries coming due: keep polling at the same pace for those
          notifyPollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
        },
        async ([job]) => {
          if (!job) return;
          try {
            await run(queue, job);
          } finally {
            if (loop.id !== undefined) boss.notifyWorker(loop.id);
          }
        },
      );
      loop.id = id;
      workers.push({ queue, id });
    }
  }

  let nextToWake = 0;
  return {
    isRunning: (jobId) => running.has(jobId),
    wake(queue, count) {
      const loops = workers.filter((w) => w.queue === queue);
      for (let i = 0; i < Math.min(count, loops.length); i += 1) {
        boss.notifyWorker(loops[(nextToWake + i) % loops.length]!.id);
      }
      nextToWake += count;
    },
    // Jobs still running when the time is up stay active; pg-boss expires and retries them, so
    // work is either finished here or handed back, never lost.
    async stop(timeoutMs = 30_000) {
      const drained = Promise.all(
        workers.map(({ queue, id }) => boss.offWork(queue, { id, wait: true })),
      );
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      await Promise.race([drained, timeout]);
      clearTimeout(timer);
    },
  };
}

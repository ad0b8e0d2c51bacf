// Runs the sync handlers on pg-boss jobs. A handler that throws is retried with backoff; on its last
// attempt, or when it reports a permanent failure, the job is recorded as a SyncFailure (shown to
// admins with a retry) and completed, because a failed job would hold back every later job of the
// same ticket or incident in a key_strict_fifo queue. A handler that must wait for another system
// (JobDeferral, or a 429) hands its job back for the delay instead of waiting in its slot; the wait
// is not a failed attempt. Each account runs at most `accountConcurrency` jobs of a queue at once
// across all instances, so one account's backlog never holds every slot.
// One run of a job: job-run.ts.
import type { Job, PgBoss, TDatabase } from '@incident-desk/db';
import type { AccountContextProvider } from '../accounts';
import { type Logger, logger as processLogger } from '../log';
import type { SyncOutcome } from './job-outcome';
import { AccountShares } from './account-shares';
import type { FailurePolicy } from './hand-back';
import { runFetchedJob, type JobRunDeps, type SyncHandler } from './job-run';
import { SYNC_QUEUES, type SyncQueue } from './queues';

/** How often pg-boss itself polls a slot that nothing woke (wakes do the regular polling). */
const IDLE_SLOT_BACKSTOP_SECONDS = 30;

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

export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const { boss } = options;
  const accountConcurrency = options.accountConcurrency ?? 2;
  const deps: JobRunDeps = {
    boss,
    db: options.db,
    accounts: options.accounts,
    handlers: options.handlers,
    failures: {
      retryLimit: options.failures?.retryLimit ?? 8,
      retryDelaySeconds: options.failures?.retryDelaySeconds ?? 2,
    },
    logger: options.logger ?? processLogger,
    running: new Set<string>(),
    shares: new AccountShares(accountConcurrency),
    ...(options.onOutcome ? { onOutcome: options.onOutcome } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    ...(options.onDeferred ? { onDeferred: options.onDeferred } : {}),
    ...(options.onRun ? { onRun: options.onRun } : {}),
  };
  const running = deps.running;

  // A pg-boss fetch loop waits out its polling interval after every job, found or not: with one
  // loop per job slot that caps a slot at one job per interval (2 jobs/s for 4 slots at 2 s). So
  // each slot is its own loop, and a loop that just finished a job is woken to fetch again at once.
  // Fetches are most of the database work per event, so a slot is woken only when it may find a
  // job: every interval one idle slot of each queue (which finds what other instances committed,
  // and deferred jobs come due), a slot that finds a job wakes another idle one (a backlog spreads
  // over the slots a fetch each), and jobs committed here wake as many idle slots (wake); a busy
  // slot looks again when its job is done anyway. The sync queues send no NOTIFY: pg-boss woke
  // every slot of the queue on every instance for each commit, most of them to fetch nothing.
  // pg-boss's own poll of a slot is only a backstop.
  const pollingSeconds = options.pollingIntervalSeconds ?? 2;
  const backstopSeconds = Math.max(pollingSeconds, IDLE_SLOT_BACKSTOP_SECONDS);
  const workers: { queue: SyncQueue; id: string; busy: boolean }[] = [];
  const wakeIdle = (queue: SyncQueue) => {
    const idle = workers.find((w) => w.queue === queue && !w.busy);
    if (idle) boss.notifyWorker(idle.id);
  };
  for (const queue of SYNC_QUEUES) {
    for (let slot = 0; slot < (options.concurrency ?? 4); slot += 1) {
      const loop = { queue, id: '', busy: false };
      loop.id = await boss.work(
        queue,
        {
          includeMetadata: true,
          groupConcurrency: accountConcurrency,
          pollingIntervalSeconds: backstopSeconds,
          notifyPollingIntervalSeconds: backstopSeconds,
        },
        async ([job]) => {
          if (!job) return;
          loop.busy = true;
          wakeIdle(queue);
          try {
            await runFetchedJob(deps, queue, job);
          } finally {
            loop.busy = false;
            boss.notifyWorker(loop.id);
          }
        },
      );
      workers.push(loop);
    }
  }
  const poll = setInterval(() => SYNC_QUEUES.forEach(wakeIdle), pollingSeconds * 1000);
  poll.unref();

  let nextToWake = 0;
  return {
    isRunning: (jobId) => running.has(jobId),
    wake(queue, count) {
      const idle = workers.filter((w) => w.queue === queue && !w.busy);
      for (let i = 0; i < Math.min(count, idle.length); i += 1) {
        boss.notifyWorker(idle[(nextToWake + i) % idle.length]!.id);
      }
      nextToWake += count;
    },
    // Jobs still running when the time is up stay active; pg-boss expires and retries them, so
    // work is either finished here or handed back, never lost.
    async stop(timeoutMs = 30_000) {
      clearInterval(poll);
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

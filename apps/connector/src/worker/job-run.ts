// One run of a fetched sync job: within its account's share, with its log context, ending as an
// outcome, handed back to wait for another system, or thrown back for a retry; on its last attempt
// a failure is recorded and the job completed.
import type { Job, JobWithMetadata, PgBoss, TDatabase } from '@incident-desk/db';
import {
  type AccountContext,
  type AccountContextProvider,
  AccountUnavailableError,
  zendeskDeferralOf,
} from '../accounts';
import { deferralOf as queueDeferralOf, type JobDeferral } from '../jobs';
import { type Logger, withLogContext } from '../log';
import type { SyncOutcome } from './job-outcome';
import type { AccountShares } from './account-shares';
import { handBack, priorFailures, retryDelayMs, type FailurePolicy } from './hand-back';
import { describeJob } from './job-identity';
import type { SyncQueue } from './queues';
import { recordSyncFailure } from './sync-failure-record';

/** The wait a failure asks for: a JobDeferral, or a 429 of the incident service or of Zendesk. */
const deferralOf = (error: unknown): JobDeferral | null =>
  queueDeferralOf(error) ?? zendeskDeferralOf(error);

export type SyncHandler = (
  ctx: AccountContext,
  data: unknown,
  job: Job<unknown>,
) => Promise<SyncOutcome>;

export interface JobRunDeps {
  boss: PgBoss;
  db: TDatabase;
  accounts: AccountContextProvider;
  handlers: Record<SyncQueue, SyncHandler>;
  failures: FailurePolicy;
  logger: Logger;
  /** Jobs this process is running (the dead-job sweep leaves them alone). */
  running: Set<string>;
  shares: AccountShares;
  onOutcome?: (queue: SyncQueue, job: Job<unknown>, outcome: SyncOutcome) => void;
  onRetry?: (queue: SyncQueue, job: Job<unknown>) => void;
  onDeferred?: (queue: SyncQueue, job: Job<unknown>) => void;
  onRun?: (queue: SyncQueue, ended: string, seconds: number) => void;
}

/** Accounts whose jobs are skipped, not retried: none of them can act until an admin acts. */
const SKIPPED_ACCOUNTS: ReadonlySet<AccountUnavailableError['reason']> = new Set([
  'unknown_account',
  'disconnected',
  'reauthorization_required',
]);

/** A job fetched past its account's share waits this long before it is fetched again. */
const ACCOUNT_SHARE_RETRY_MS = 250;

/**
 * The job's lines carry its id, queue, account and the id of the request that enqueued it (the
 * job's `requestId`), so one delivery can be followed from receipt to its outcome.
 */
export function runFetchedJob(
  deps: JobRunDeps,
  queue: SyncQueue,
  job: JobWithMetadata<unknown>,
): Promise<void> {
  const { boss, logger } = deps;
  const { accountId, requestId } = describeJob(job.data);
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
    if (!deps.shares.take(share, Boolean(accountId))) {
      // two loops fetched for one account at once: the later one gives its job back at once
      await handBack(boss, queue, job, { delayMs: ACCOUNT_SHARE_RETRY_MS, deferred: true });
      deps.onDeferred?.(queue, job);
      return;
    }
    deps.running.add(job.id);
    try {
      const outcome = await runJob(deps, queue, job, failed);
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
        deps.onDeferred?.(queue, job);
        return;
      }
      logger.warn('job failed; it is retried', {
        error,
        attempt: failed + 1,
        durationMs: durationMs(),
      });
      deps.onRetry?.(queue, job);
      await handBack(boss, queue, job, {
        delayMs: retryDelayMs(deps.failures, failed + 1),
        deferred: false,
      }).catch(() => {
        throw error;
      });
    } finally {
      deps.onRun?.(queue, ended, (performance.now() - started) / 1000);
      deps.running.delete(job.id);
      deps.shares.release(share);
    }
  });
}

async function runJob(
  deps: JobRunDeps,
  queue: SyncQueue,
  job: JobWithMetadata<unknown>,
  failed: number,
): Promise<SyncOutcome> {
  const { failures, logger } = deps;
  // a job queued before deferrals existed has pg-boss's own limit: it cannot be handed back past it
  const lastAttempt = failed >= failures.retryLimit || job.retryCount >= job.retryLimit;
  let outcome: SyncOutcome;
  try {
    const accountId = describeJob(job.data).accountId;
    if (!accountId) throw new AccountUnavailableError('(none)', 'unknown_account');
    const ctx = await deps.accounts.forAccount(accountId, { signal: job.signal });
    outcome = await deps.handlers[queue](ctx, job.data, job);
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
  if (outcome.status === 'failed_permanently')
    await recordSyncFailure(deps.db, logger, queue, job, outcome.reason);
  deps.onOutcome?.(queue, job, outcome);
  return outcome;
}

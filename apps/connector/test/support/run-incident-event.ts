// handleIncidentEvent as the worker runs it: a job that defers (waiting for a link, a claim, a
// report or a call under way, or a 429's Retry-After) is run again after its delay, as the queue
// would, until it ends.
import type { AccountContext } from '../../src/accounts/account-context';
import { zendeskDeferralOf } from '../../src/accounts/zendesk-failures';
import { deferralOf } from '../../src/jobs/job-deferral';
import type { IncidentEventJob } from '../../src/jobs/incident-event-job';
import { handleIncidentEvent as handleOnce } from '../../src/sync/incident-events/handle-incident-event';
import type { SyncOutcome } from '../../src/worker/job-outcome';
import type { SyncDeps } from '../../src/sync/sync-deps';

export { handleOnce };

/** Runs the job until it is no longer deferred (at most `timeoutMs`), as the queue would. */
export async function handleIncidentEvent(
  deps: SyncDeps,
  ctx: AccountContext,
  job: IncidentEventJob,
  timeoutMs = 60_000,
): Promise<SyncOutcome> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await handleOnce(deps, ctx, job);
    } catch (error) {
      const deferral = deferralOf(error) ?? zendeskDeferralOf(error);
      if (!deferral || Date.now() + deferral.delayMs > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, deferral.delayMs));
    }
  }
}

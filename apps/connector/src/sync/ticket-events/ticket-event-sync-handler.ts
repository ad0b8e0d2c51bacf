// Adapts handleTicketEvent to the worker's handler shape: the queued data is parsed at this edge
// (nothing unparsed goes further in) and the queue's last try is passed on, so a transient
// failure then becomes a note on the ticket instead of a silent dead letter.
import { z } from 'zod';
import type { AccountContext } from '../../accounts';
import { ZTicketEventJob } from '../../jobs';
import type { SyncOutcome } from '../../worker';
import { handleTicketEvent } from './handle-ticket-event';
import type { SyncDeps } from '../sync-deps';

/** pg-boss job metadata, when the worker fetched it (includeMetadata). */
function isLastAttempt(job: object | undefined): boolean {
  if (!job || !('retryCount' in job) || !('retryLimit' in job)) return false;
  const { retryCount, retryLimit } = job;
  return (
    typeof retryCount === 'number' && typeof retryLimit === 'number' && retryCount >= retryLimit
  );
}

/** The job id, which the inbox makes the id of the delivery's receipt. */
function receiptIdOf(job: object | undefined): string | undefined {
  return job && 'id' in job && typeof job.id === 'string' ? job.id : undefined;
}

export function ticketEventSyncHandler(deps: Omit<SyncDeps, 'lastAttempt' | 'receiptId'>) {
  return async (ctx: AccountContext, data: unknown, job?: object): Promise<SyncOutcome> => {
    const parsed = ZTicketEventJob.safeParse(data);
    if (!parsed.success) {
      return {
        status: 'failed_permanently',
        reason: `malformed ticket event job: ${z.prettifyError(parsed.error)}`,
      };
    }
    const receiptId = receiptIdOf(job);
    return handleTicketEvent(
      { ...deps, lastAttempt: isLastAttempt(job), ...(receiptId ? { receiptId } : {}) },
      ctx,
      parsed.data,
    );
  };
}

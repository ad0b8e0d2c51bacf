// The worker's entry point for ticketing-webhook jobs. The body names the ticket only; every
// handler reads the current ticket through the API. Throwing = transient, retry the job; a
// JobDeferral hands the job back for later. Notes an earlier job of the ticket still owes (its
// write was put off) are written first.
import type { AccountContext } from '../../accounts';
import type { TicketEventJob } from '../../jobs';
import type { SyncOutcome } from '../../worker';
import { payOwedNotes } from '../owed-notes';
import { forwardComments } from './forward-comments';
import { reportThreat } from './report-flow';
import { requestIncidentAction } from './request-incident-action';
import type { SyncDeps } from '../sync-deps';

export async function handleTicketEvent(
  deps: SyncDeps,
  ctx: AccountContext,
  job: TicketEventJob,
): Promise<SyncOutcome> {
  const { body } = job;
  await payOwedNotes(ctx, deps.db, body.ticketId, deps.now);
  switch (body.kind) {
    case 'report':
      return reportThreat(deps, ctx, body.ticketId, body.mode, {
        byTag: job.via === 'trigger',
        ...(job.via === 'sidebar' && job.agentEmail ? { reportedBy: job.agentEmail } : {}),
      });
    case 'comment':
      return forwardComments(deps, ctx, body.ticketId);
    case 'action':
      return requestIncidentAction(deps, ctx, body.ticketId, body.action);
  }
}

// The worker's entry point for ticketing-webhook jobs. The body names the ticket only; every
// handler reads the current ticket through the API. Throwing = transient, retry the job.
import type { AccountContext } from '../../accounts/account-context';
import type { TicketEventJob } from '../../jobs/ticket-event-job';
import type { SyncOutcome } from '../job-outcome';
import { forwardComments } from './forward-comments';
import { reportThreat } from './report-threat';
import { requestIncidentAction } from './request-incident-action';
import type { SyncDeps } from '../sync-deps';

export async function handleTicketEvent(
  deps: SyncDeps,
  ctx: AccountContext,
  job: TicketEventJob,
): Promise<SyncOutcome> {
  const { body } = job;
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

// The worker's entry point for ticketing-webhook jobs. The body names the ticket only; every
// handler reads the current ticket through the API. Throwing = transient, retry the job.
import type { AccountContext } from '../../accounts/account-context';
import type { TicketEventJob } from '../../http/ticketing-webhook';
import type { SyncOutcome } from '../job-outcome';
import { forwardComments } from './forward-comments';
import { reportThreat } from './report-threat';
import { requestIncidentAction } from './request-incident-action';
import type { TicketEventDeps } from './ticket-event-deps';

export async function handleTicketEvent(
  deps: TicketEventDeps,
  ctx: AccountContext,
  job: TicketEventJob,
): Promise<SyncOutcome> {
  const { body } = job;
  switch (body.kind) {
    case 'report':
      return reportThreat(deps, ctx, body.ticketId, body.mode, { byTag: job.via === 'trigger' });
    case 'comment':
      return forwardComments(deps, ctx, body.ticketId);
    case 'action':
      return requestIncidentAction(deps, ctx, body.ticketId, body.action);
  }
}

// An incident.status_changed without data.status ("payload fields are omitted when … not yet
// populated; receivers must use fallbacks"): the incident's status, read now, is at least as new as
// the event. A transient failure retries the job; an incident that cannot be read leaves the status
// unknown and the note says so.
import type { AccountContext } from '../../accounts';
import type { LinkedTicket } from './incident-link-store';
import type { IncidentStatusChangedEvent } from './incident-event';
import { isTransientFailure } from '../service-failure';

export async function statusFromIncident(
  ctx: AccountContext,
  event: IncidentStatusChangedEvent,
  link: LinkedTicket,
): Promise<string | undefined> {
  try {
    const detail = await ctx
      .incidents(event.clientId)
      .incidents.retrieve(link.reportRef ?? event.incidentId);
    return detail.status;
  } catch (error) {
    if (isTransientFailure(error)) throw error;
    return undefined;
  }
}

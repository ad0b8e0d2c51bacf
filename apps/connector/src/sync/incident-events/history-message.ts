// An incident.history_created without data.historyEntry.message: the analyst's words are in the
// incident's history (GET /v1/incident/{id}). The entry nearest the event's time is taken, and said
// to be exact when it is of the event's own moment; when the incident cannot be read the note says
// only that the incident was updated.
import type { AccountContext } from '../../accounts/account-context';
import type { LinkedTicket } from './incident-link-store';
import type { IncidentHistoryCreatedEvent } from './incident-event';
import { isTransientFailure } from '../service-failure';

export async function historyMessageFromIncident(
  ctx: AccountContext,
  event: IncidentHistoryCreatedEvent,
  link: LinkedTicket,
): Promise<{ message: string; exact: boolean } | undefined> {
  let history: { timestamp: string; message: string }[];
  try {
    const detail = await ctx
      .incidents(event.clientId)
      .incidents.retrieve(link.reportRef ?? event.incidentId);
    history = detail.history;
  } catch (error) {
    if (isTransientFailure(error)) throw error;
    return undefined;
  }
  const at = event.occurredAt.getTime();
  let best: { gap: number; message: string } | undefined;
  for (const entry of history) {
    const message = entry.message.trim();
    if (message === '') continue;
    const time = new Date(entry.timestamp).getTime();
    const gap = Number.isNaN(time) ? Number.MAX_SAFE_INTEGER : Math.abs(time - at);
    // of entries of one moment, the first the history lists
    if (best === undefined || gap < best.gap) best = { gap, message };
  }
  // the entry of the event's own moment (the service dates both alike) is the one it announced
  return best && { message: best.message, exact: best.gap === 0 };
}

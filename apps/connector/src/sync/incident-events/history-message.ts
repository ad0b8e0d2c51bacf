// An incident.history_created without data.historyEntry.message: the analyst's words are in the
// incident's history (GET /v1/incident/{id}). The entries nearest the event's time are taken (one,
// or several the service dated alike), and said to be exact when they are of the event's own
// moment; when the incident cannot be read the note says only that the incident was updated.
import type { AccountContext } from '../../accounts';
import type { LinkedTicket } from './incident-link-store';
import type { IncidentHistoryCreatedEvent } from './incident-event';
import { isTransientFailure } from '../service-failure';

/** The messages of the entries dated nearest the event, oldest first. */
export async function historyMessagesFromIncident(
  ctx: AccountContext,
  event: IncidentHistoryCreatedEvent,
  link: LinkedTicket,
): Promise<{ messages: string[]; exact: boolean } | undefined> {
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
  let best: { gap: number; messages: string[] } | undefined;
  for (const entry of history) {
    const message = entry.message.trim();
    if (message === '') continue;
    const time = new Date(entry.timestamp).getTime();
    const gap = Number.isNaN(time) ? Number.MAX_SAFE_INTEGER : Math.abs(time - at);
    if (best === undefined || gap < best.gap) best = { gap, messages: [message] };
    // the history lists the newest first
    else if (gap === best.gap) best.messages.unshift(message);
  }
  // the entries of the event's own moment (the service dates both alike) hold the one it announced
  return best && { messages: best.messages, exact: best.gap === 0 };
}

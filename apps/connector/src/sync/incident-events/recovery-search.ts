// The recovery path when the link table has no row: tickets whose Incident ID field holds exactly
// one of the incident's known ids (the event's, and the id the service's detail names it by). Search
// is fuzzy and lags, so every hit is checked against the field value itself.
import type { AccountContext } from '../../accounts';

export interface RecoveredTicket {
  ticketId: number;
  /** The id the ticket's Incident ID field holds: one of those searched for. */
  fieldValue: string;
}

export async function findTicketByIncidentField(
  ctx: AccountContext,
  incidentIds: readonly string[],
): Promise<RecoveredTicket | null> {
  let oldest: RecoveredTicket | null = null;
  for (const incidentId of new Set(incidentIds)) {
    const page = await ctx.zendesk.search.ticketsByCustomField(ctx.fields.incidentId, incidentId);
    for (const ticket of page.getItems()) {
      const field = ticket.custom_fields.find((entry) => entry.id === ctx.fields.incidentId);
      if (field?.value !== incidentId || ticket.status === 'closed') continue;
      // The oldest ticket wins when several carry the incident: the one most likely linked by a report.
      if (oldest === null || ticket.id < oldest.ticketId)
        oldest = { ticketId: ticket.id, fieldValue: incidentId };
    }
  }
  return oldest;
}

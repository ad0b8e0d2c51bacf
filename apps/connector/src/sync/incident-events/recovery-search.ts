// The recovery path when the link table has no row: tickets whose Incident ID field holds exactly
// this id. Search is fuzzy and lags, so every hit is checked against the field value itself.
import type { AccountContext } from '../../accounts/account-context';

export async function findTicketByIncidentField(
  ctx: AccountContext,
  incidentId: string,
): Promise<number | null> {
  const matches: number[] = [];
  const page = await ctx.zendesk.search.ticketsByCustomField(ctx.fields.incidentId, incidentId);
  for (const ticket of page.getItems()) {
    const field = ticket.custom_fields.find((entry) => entry.id === ctx.fields.incidentId);
    if (field?.value === incidentId && ticket.status !== 'closed') matches.push(ticket.id);
  }
  // The oldest ticket wins when several carry the id: the one most likely linked by a report.
  return matches.length > 0 ? Math.min(...matches) : null;
}

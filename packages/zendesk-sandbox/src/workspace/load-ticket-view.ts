import { fieldOptions, fieldTitles, type TicketView } from './render-ticket-page';
import type { TSupportApi } from './support-api';

/** Everything the ticket panel shows, read through the API as the agent. */
export async function loadTicketView(api: TSupportApi, ticketId: number): Promise<TicketView> {
  const [ticket, page, fields] = await Promise.all([
    api.getTicket(ticketId),
    api.listComments(ticketId),
    // Field titles are a nicety: a ticket still renders without them.
    api.listTicketFields().catch(() => []),
  ]);
  return {
    ticket,
    comments: page.comments,
    authors: new Map(page.users.map((u) => [u.id, u.name ?? `User ${u.id}`])),
    fields: fieldTitles(fields),
    options: fieldOptions(fields),
  };
}

import type { Request, RequestHandler, Response } from 'express';
import { escapeHtml } from '@incident-desk/threat-text';
import type { WorkspaceDeps } from '../workspace-deps';
import type { TApiTicket, TSupportApi } from './support-api';
import { PageError, pickAgent, subdomainOf } from './ticket-page-route';

export interface TicketListContext {
  deps: Pick<WorkspaceDeps, 'defaultAgent' | 'findUser'>;
  agentApi(subdomain: string, userId: number): TSupportApi;
}

/** The query the list's links keep, so `?as=` and `?subdomain=` follow the agent to each ticket. */
function keptQuery(req: Request): string {
  const kept = new URLSearchParams();
  for (const name of ['as', 'subdomain']) {
    const value = req.query[name];
    if (typeof value === 'string') kept.set(name, value);
  }
  const text = kept.toString();
  return text ? `?${text}` : '';
}

function renderTicketList(input: {
  tickets: TApiTicket[];
  subdomain: string;
  agentName: string;
  ticketHref: (id: number) => string;
}): string {
  const rows = input.tickets
    .map(
      (t) =>
        `<tr data-ticket-id="${t.id}"><td>#${t.id}</td>` +
        `<td><a href="${escapeHtml(input.ticketHref(t.id))}">${escapeHtml(t.subject ?? '')}</a></td>` +
        `<td>${escapeHtml(t.status ?? '')}</td><td>${escapeHtml(t.tags.join(' '))}</td>` +
        `<td>${escapeHtml(t.updated_at ?? '')}</td></tr>`,
    )
    .join('');
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">` +
    `<title>Tickets - Agent workspace (sandbox)</title><style>` +
    `body{font-family:system-ui,sans-serif;color:#2f3941;margin:16px 24px}` +
    `table{border-collapse:collapse;width:100%}td,th{text-align:left;border-bottom:1px solid #e9ebed;padding:4px 6px}` +
    `</style></head><body><h1>Tickets</h1>` +
    `<p id="workspace-agent">${escapeHtml(input.agentName)} · ${escapeHtml(input.subdomain)}</p>` +
    (rows
      ? `<table id="ticket-list"><thead><tr><th>Ticket</th><th>Subject</th><th>Status</th><th>Tags</th><th>Updated</th></tr></thead><tbody>${rows}</tbody></table>`
      : '<p>No tickets yet.</p>') +
    `</body></html>`
  );
}

/** `GET /tickets`: the account's tickets as the agent sees them, newest first, each a link to its page. */
export function ticketListHandler(ctx: TicketListContext): RequestHandler {
  return async (req: Request, res: Response) => {
    const subdomain = subdomainOf(req, res);
    try {
      const agent = await pickAgent(ctx.deps, subdomain, req.query.as);
      const tickets = await ctx.agentApi(subdomain, agent.id).listTickets();
      const query = keptQuery(req);
      const base = req.originalUrl.split('?')[0]?.replace(/\/$/, '') ?? '';
      res
        .status(200)
        .set('cache-control', 'no-store')
        .type('html')
        .send(
          renderTicketList({
            tickets,
            subdomain,
            agentName: agent.name,
            ticketHref: (id) => `${base}/${id}${query}`,
          }),
        );
    } catch (err) {
      res
        .status(err instanceof PageError ? err.status : 502)
        .type('html')
        .send(`<!doctype html><p id="workspace-error">${escapeHtml((err as Error).message)}</p>`);
    }
  };
}

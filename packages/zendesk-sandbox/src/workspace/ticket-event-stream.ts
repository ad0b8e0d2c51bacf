import type { Request, Response } from 'express';
import type { WorkspaceDeps } from '../workspace-deps';
import { loadTicketView } from './load-ticket-view';
import { renderTicketPanel } from './render-ticket-page';
import type { WorkspaceSession } from './session-store';
import { snapshotOf, ticketChangeEvents } from './ticket-events';

/**
 * Server-sent events for one host page: on every change of its ticket, the ZAF events it raises and
 * the re-rendered ticket panel (`event: ticket`, data `{version, events, ticketHtml}`).
 */
export function streamTicketEvents(
  req: Request,
  res: Response,
  session: WorkspaceSession,
  deps: Pick<WorkspaceDeps, 'onTicketChanged'>,
  heartbeatMs: number,
): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  });
  res.write(': connected\n\n');
  let version = 0;
  let open = true;
  let chain: Promise<void> = Promise.resolve();
  const refresh = () => {
    chain = chain
      .then(async () => {
        if (!open) return;
        const view = await loadTicketView(session.api, session.ticketId);
        // A stream that closed meanwhile must not consume the change: a reconnect still gets it.
        if (!open) return;
        const next = snapshotOf(view.ticket);
        const events = ticketChangeEvents(session.snapshot, next);
        session.snapshot = next;
        version += 1;
        res.write(
          `event: ticket\ndata: ${JSON.stringify({ version, events, ticketHtml: renderTicketPanel(view) })}\n\n`,
        );
      })
      .catch(() => {
        // A failed read is retried on the next change.
      });
  };
  const unsubscribe = deps.onTicketChanged((subdomain, ticketId) => {
    if (subdomain === session.subdomain && ticketId === session.ticketId) refresh();
  });
  // Changes between the page render and this connection are not lost.
  refresh();
  const heartbeat = setInterval(() => res.write(': ping\n\n'), heartbeatMs);
  heartbeat.unref();
  req.on('close', () => {
    open = false;
    unsubscribe();
    clearInterval(heartbeat);
  });
}

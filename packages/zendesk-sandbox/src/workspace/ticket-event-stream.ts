import type { Request, Response } from 'express';
import type { WorkspaceDeps } from '../workspace-deps';
import { loadTicketView } from './load-ticket-view';
import { renderTicketPanel } from './render-ticket-page';
import type { WorkspaceSession } from './session-store';
import { snapshotOf, ticketChangeEvents, type ZafEvent } from './ticket-events';
import { zafUser } from './zaf-user';

/**
 * Server-sent events for one host page: on every change of its ticket, the ZAF events it raises and
 * the re-rendered ticket panel (`event: ticket`, data `{version, events, ticketHtml}`). A change whose
 * audit is by another user than the page's agent also raises `ticket.updated` (Zendesk's "updated by
 * someone else"), with that user; the first read after connecting only sets where audits stand.
 */
export function streamTicketEvents(
  req: Request,
  res: Response,
  session: WorkspaceSession,
  deps: Pick<WorkspaceDeps, 'onTicketChanged' | 'findUser'>,
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
  let lastAuditId: number | undefined;
  /** `ticket.updated` when the latest audit is new and by someone else; none when audits cannot be read. */
  const updatedBySomeoneElse = async (): Promise<ZafEvent[]> => {
    const audit = await session.api.latestAudit(session.ticketId).catch(() => null);
    if (!audit) return [];
    const seen = lastAuditId;
    lastAuditId = audit.id;
    if (seen === undefined || audit.id <= seen || audit.author_id === session.agent.id) return [];
    const author =
      audit.author_id === null ? null : await deps.findUser(session.subdomain, audit.author_id);
    return [{ name: 'ticket.updated', payload: author ? zafUser(author) : null }];
  };
  const refresh = () => {
    chain = chain
      .then(async () => {
        if (!open) return;
        const [view, updated] = await Promise.all([
          loadTicketView(session.api, session.ticketId),
          updatedBySomeoneElse(),
        ]);
        // A stream that closed meanwhile must not consume the change: a reconnect still gets it.
        if (!open) return;
        const next = snapshotOf(view.ticket);
        const events = [...ticketChangeEvents(session.snapshot, next), ...updated];
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

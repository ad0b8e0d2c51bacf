// The sidebar's reads of a ticket: the whole view, the threats found in it, and the duplicates of
// one of them caught before a report.
import express, { type Router } from 'express';
import { AppError, sendAppError } from '../http';
import { callerOf } from './authenticate';
import type { IncidentClientIds } from './incident-parts';
import { accountError } from './sidebar-errors';
import { isThreatOfTicket, THREAT_NOT_IN_TICKET } from './threat-actions';
import { duplicatesShownTo, findThreatDuplicates, threatValueOf } from './threat-duplicates';
import { TICKET_PATH, ticketOf, type TicketRouteDeps } from './ticket-route-answers';
import { readTicketThreats } from './ticket-threats';
import { buildTicketView, startEarlyViewReads } from './ticket-view';
import { viewerOf } from './viewer';

export function ticketReadRouter(
  deps: TicketRouteDeps & { incidentClientIds: IncidentClientIds },
): Router {
  const { db, now, authenticate } = deps;
  const router = express.Router();

  router.get(TICKET_PATH, authenticate, async (_req, res) => {
    const { ctx, ticketId, access } = callerOf(res);
    // Not waiting for the ticket: for a linked ticket the durable link already names the incident.
    // Those reads are only answered once the ticket is read and the user may see it.
    const early = startEarlyViewReads(db, ctx, ticketId, deps.incidentClientIds);
    const ticket = await ticketOf(res);
    if (!ticket) return;
    res.set('Cache-Control', 'no-store');
    res.json({
      ...(await buildTicketView(db, ctx, ticket, now(), early)),
      viewer: viewerOf(access),
    });
  });

  router.get(`${TICKET_PATH}/threats`, authenticate, async (_req, res) => {
    const ticket = await ticketOf(res);
    if (!ticket) return;
    try {
      const threats = await readTicketThreats(db, callerOf(res).ctx, ticket);
      res.set('Cache-Control', 'no-store').json({ threats });
    } catch (error) {
      sendAppError(res, accountError(error));
    }
  });

  router.get(`${TICKET_PATH}/duplicates`, authenticate, async (req, res) => {
    const value = threatValueOf(req.query.value);
    if (!value)
      return sendAppError(
        res,
        new AppError('invalid_value', {
          message: 'value: one threat value of at most 2048 characters',
        }),
      );
    const ticket = await ticketOf(res);
    if (!ticket) return;
    const caller = callerOf(res);
    try {
      // only a threat of this very ticket: the route never answers for a value picked elsewhere
      if (!(await isThreatOfTicket(db, caller, ticket, value)))
        return sendAppError(res, THREAT_NOT_IN_TICKET);
      const duplicates = await findThreatDuplicates(db, caller.ctx, ticket.id, value);
      res
        .set('Cache-Control', 'no-store')
        .json(await duplicatesShownTo(caller.ctx, caller.access, duplicates));
    } catch (error) {
      sendAppError(res, accountError(error));
    }
  });

  return router;
}

// The sidebar's actions on a linked incident: approving a takedown, asking the incident service to
// act, sending a forwarded reply again, and writing this ticket's waiting updates now.
import express, { type Router } from 'express';
import { ZApproveBody, ZIncidentAction } from '@incident-desk/sidebar-contract';
import { AppError, sendAppError } from '../http';
import { callerOf } from './authenticate';
import { approveTakedown, incidentAction, retryForward } from './ticket-actions';
import { retryWaitingTicketUpdates } from './ticket-update-retry';
import {
  actionBodyParser,
  answer,
  bodyOf,
  noInbox,
  TICKET_PATH,
  ticketToActOn,
  type TicketRouteDeps,
} from './ticket-route-answers';

export function ticketActionRouter(deps: TicketRouteDeps): Router {
  const { db, now, authenticate } = deps;
  const router = express.Router();
  const json = actionBodyParser();

  router.post(`${TICKET_PATH}/approve-takedown`, authenticate, json, async (req, res) => {
    const body = bodyOf(req, res, ZApproveBody);
    if (!body) return;
    const ticket = await ticketToActOn(res);
    if (!ticket) return;
    answer(res, await approveTakedown(db, callerOf(res), ticket, body.author));
  });

  router.post(`${TICKET_PATH}/actions/:action`, authenticate, json, async (req, res) => {
    const action = ZIncidentAction.safeParse(req.params.action);
    if (!action.success)
      return sendAppError(res, new AppError('not_found', { message: 'no such action' }));
    const ticket = await ticketToActOn(res);
    if (!ticket) return;
    answer(res, await incidentAction(db, callerOf(res), ticket, action.data, now()));
  });

  router.post(`${TICKET_PATH}/forwards/:forwardId/retry`, authenticate, json, async (req, res) => {
    if (!deps.inbox) return noInbox(res);
    if (!(await ticketToActOn(res))) return;
    const forwardId = String(req.params.forwardId);
    answer(res, await retryForward(db, deps.inbox, callerOf(res), forwardId, now()));
  });

  router.post(`${TICKET_PATH}/ticket-updates/retry`, authenticate, json, async (_req, res) => {
    if (!(await ticketToActOn(res))) return;
    answer(res, await retryWaitingTicketUpdates(db, callerOf(res), now()));
  });

  return router;
}

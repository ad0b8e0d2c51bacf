// The sidebar's reports: the ticket's threat reported (or its link tried again), a threat found in
// the ticket reported, or linked to an incident that already exists.
import express, { type Router } from 'express';
import {
  ZFoundThreatReportBody,
  ZLinkExistingBody,
  ZReportBody,
} from '@incident-desk/sidebar-contract';
import { sendAppError } from '../http';
import { callerOf } from './authenticate';
import { retryLink } from './retry-link';
import { accountError } from './sidebar-errors';
import { linkExistingIncident, reportFoundThreat } from './threat-actions';
import { threatValueOf } from './threat-duplicates';
import { queueThreatReport } from './ticket-actions';
import {
  actionBodyParser,
  answer,
  bodyOf,
  noInbox,
  TICKET_PATH,
  ticketToActOn,
  type TicketRouteDeps,
} from './ticket-route-answers';

export function ticketReportRouter(deps: TicketRouteDeps): Router {
  const { db, now, authenticate } = deps;
  const router = express.Router();
  const json = actionBodyParser();

  router.post(`${TICKET_PATH}/report`, authenticate, json, async (req, res) => {
    const body = bodyOf(req, res, ZReportBody);
    if (!body) return;
    if (!deps.inbox) return noInbox(res);
    const ticket = await ticketToActOn(res);
    if (!ticket) return;
    answer(res, await queueThreatReport(db, deps.inbox, callerOf(res), ticket, body.mode, now()));
  });

  router.post(`${TICKET_PATH}/retry-link`, authenticate, json, async (_req, res) => {
    if (!deps.inbox) return noInbox(res);
    const ticket = await ticketToActOn(res);
    if (!ticket) return;
    answer(res, await retryLink(db, deps.inbox, callerOf(res), ticket, now()));
  });

  router.post(`${TICKET_PATH}/threats/report`, authenticate, json, async (req, res) => {
    const body = bodyOf(req, res, ZFoundThreatReportBody);
    if (!body) return;
    if (!deps.inbox) return noInbox(res);
    const ticket = await ticketToActOn(res);
    if (!ticket) return;
    const value = threatValueOf(body.value)!;
    try {
      answer(
        res,
        await reportFoundThreat(db, deps.inbox, callerOf(res), ticket, value, body.mode, now()),
      );
    } catch (error) {
      sendAppError(res, accountError(error));
    }
  });

  router.post(`${TICKET_PATH}/link-existing`, authenticate, json, async (req, res) => {
    const body = bodyOf(req, res, ZLinkExistingBody);
    if (!body) return;
    const ticket = await ticketToActOn(res);
    if (!ticket) return;
    const value = threatValueOf(body.value)!;
    try {
      answer(res, await linkExistingIncident(db, callerOf(res), ticket, value, now()));
    } catch (error) {
      sendAppError(res, accountError(error));
    }
  });

  return router;
}

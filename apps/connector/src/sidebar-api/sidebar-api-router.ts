// The connector side of the sidebar API (apps/sidebar/SIDEBAR_API.md): one GET with everything the
// view needs, and the actions. Every route is authenticated by authenticateSidebar first.
import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { TDatabase } from '@incident-desk/db';
import type { TTicket } from '@incident-desk/zendesk-api';
import type { AccountContextProvider } from '../accounts/account-context';
import type { Inbox } from '../ingest/inbox';
import { createAgentChecker } from './agent-check';
import { authenticateSidebar, callerOf, type SidebarInstallations } from './authenticate';
import { accountError, sendSidebarError } from './sidebar-errors';
import {
  approveTakedown,
  incidentAction,
  reportThreat,
  retryForward,
  type ActionResult,
} from './ticket-actions';
import { retryLink } from './retry-link';
import { IncidentClientIds } from './incident-parts';
import { buildTicketView, startEarlyViewReads } from './ticket-view';

export interface SidebarApiOptions {
  db: TDatabase;
  accounts: AccountContextProvider;
  installations: SidebarInstallations;
  /** Needed by report and retry-forward (they enqueue ticket jobs); without it they answer 501. */
  inbox?: Inbox;
  now?: () => Date;
  /** How long an agent check is trusted. Default 60 s. */
  agentCacheMs?: number;
  /** Clock skew allowed on exp. Default 5 s. */
  clockToleranceSeconds?: number;
}

const ZApproveBody = z.object({ author: z.unknown().optional() }).loose();
const ZReportBody = z.object({ mode: z.enum(['takedown', 'monitor']) });
const ZAction = z.enum(['takedown', 'monitor', 'safe']);

export function sidebarApiRouter(options: SidebarApiOptions): Router {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const router = express.Router();
  const authenticate = authenticateSidebar({
    installations: options.installations,
    accounts: options.accounts,
    agents: createAgentChecker({ ttlMs: options.agentCacheMs ?? 60_000, now }),
    now,
    clockToleranceSeconds: options.clockToleranceSeconds ?? 5,
  });
  const json = express.json({ limit: '8kb' });
  const incidentClientIds = new IncidentClientIds();
  const base = '/sidebar/tickets/:ticketId';

  /** The ticket, read with the account's own client: another account's ticket is not found. */
  async function ticketOf(res: Response): Promise<TTicket | null> {
    const { ctx, ticketId } = callerOf(res);
    try {
      return await ctx.zendesk.tickets.show(ticketId);
    } catch (error) {
      sendSidebarError(res, accountError(error));
      return null;
    }
  }

  function answer(res: Response, result: ActionResult) {
    if ('error' in result) return sendSidebarError(res, result.error);
    res.status(result.status).json({ message: result.message });
  }

  function bodyOf<T>(req: Request, res: Response, schema: z.ZodType<T>): T | null {
    const parsed = schema.safeParse(req.body ?? {});
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    sendSidebarError(res, {
      status: 400,
      code: 'invalid_body',
      message: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`,
    });
    return null;
  }

  const noInbox = (res: Response) =>
    sendSidebarError(res, {
      status: 501,
      code: 'not_implemented',
      message: 'this connector instance does not queue ticket jobs',
    });

  router.get(base, authenticate, async (_req, res) => {
    const { ctx, ticketId } = callerOf(res);
    // Not waiting for the ticket: for a linked ticket the durable link already names the incident.
    const early = startEarlyViewReads(db, ctx, ticketId, incidentClientIds);
    const ticket = await ticketOf(res);
    if (!ticket) return;
    res.set('Cache-Control', 'no-store');
    res.json(await buildTicketView(db, ctx, ticket, now(), early));
  });

  router.post(`${base}/approve-takedown`, authenticate, json, async (req, res) => {
    const body = bodyOf(req, res, ZApproveBody);
    if (!body) return;
    const ticket = await ticketOf(res);
    if (!ticket) return;
    answer(res, await approveTakedown(db, callerOf(res), ticket, body.author));
  });

  router.post(`${base}/actions/:action`, authenticate, json, async (req, res) => {
    const action = ZAction.safeParse(req.params.action);
    if (!action.success)
      return sendSidebarError(res, { status: 404, code: 'not_found', message: 'no such action' });
    const ticket = await ticketOf(res);
    if (!ticket) return;
    answer(res, await incidentAction(db, callerOf(res), ticket, action.data));
  });

  router.post(`${base}/report`, authenticate, json, async (req, res) => {
    const body = bodyOf(req, res, ZReportBody);
    if (!body) return;
    if (!options.inbox) return noInbox(res);
    const ticket = await ticketOf(res);
    if (!ticket) return;
    answer(res, await reportThreat(db, options.inbox, callerOf(res), ticket, body.mode, now()));
  });

  router.post(`${base}/retry-link`, authenticate, json, async (_req, res) => {
    if (!options.inbox) return noInbox(res);
    const ticket = await ticketOf(res);
    if (!ticket) return;
    answer(res, await retryLink(db, options.inbox, callerOf(res), ticket, now()));
  });

  router.post(`${base}/forwards/:forwardId/retry`, authenticate, json, async (req, res) => {
    if (!options.inbox) return noInbox(res);
    const forwardId = String(req.params.forwardId);
    answer(res, await retryForward(db, options.inbox, callerOf(res), forwardId, now()));
  });

  return router;
}

// The connector side of the sidebar API (apps/sidebar/SIDEBAR_API.md): the signed page that opens
// a session, its renewal, one GET with everything the view needs, and the actions. Every ticket
// route is authenticated by authenticateSidebar, and acts only on a ticket the user may see.
import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { TDatabase } from '@incident-desk/db';
import {
  ZApproveBody,
  ZFoundThreatReportBody,
  ZIncidentAction,
  ZLinkExistingBody,
  ZReportBody,
} from '@incident-desk/sidebar-contract';
import type { TTicket } from '@incident-desk/zendesk-api';
import type { AccountContextProvider } from '../accounts/account-context';
import type { Inbox } from '../ingest/inbox';
import { createAgentChecker, maySeeTicket } from './agent-access';
import { createAppPublicKeys } from './app-public-key';
import {
  authenticateSidebar,
  bearerOf,
  callerOf,
  contextOfSession,
  INVALID_SESSION,
} from './authenticate';
import { AppError, sendAppError } from '../http/app-error';
import { accountError } from './sidebar-errors';
import { sidebarPageRouter } from './sidebar-page';
import { createSidebarSessions } from './sidebar-sessions';
import {
  approveTakedown,
  incidentAction,
  queueThreatReport,
  retryForward,
  type ActionResult,
} from './ticket-actions';
import { retryLink } from './retry-link';
import {
  isThreatOfTicket,
  linkExistingIncident,
  reportFoundThreat,
  THREAT_NOT_IN_TICKET,
} from './threat-actions';
import { duplicatesShownTo, findThreatDuplicates, threatValueOf } from './threat-duplicates';
import { readTicketThreats } from './ticket-threats';
import { IncidentClientIds } from './incident-parts';
import { buildTicketView, startEarlyViewReads } from './ticket-view';

export interface SidebarApiOptions {
  db: TDatabase;
  accounts: AccountContextProvider;
  /** The app's id in Zendesk: whose public key verifies the signed page requests. */
  appId: number;
  /** The built sidebar app (apps/sidebar/dist). */
  distDir: string;
  /** The agent workspace origin of an account (the page's frame-ancestors). */
  zendeskOriginOf(subdomain: string): string;
  /** Needed by report and retry-forward (they enqueue ticket jobs); without it they answer 501. */
  inbox?: Inbox;
  now?: () => Date;
  /** How long an agent check is trusted. Default 60 s. */
  agentCacheMs?: number;
  /** Least time between two reads of the app's public key after a failed signature. Default 60 s. */
  publicKeyRefetchMs?: number;
  log?: (message: string) => void;
}

export function sidebarApiRouter(options: SidebarApiOptions): Router {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const router = express.Router();
  const agents = createAgentChecker({ ttlMs: options.agentCacheMs ?? 60_000, now });
  const sessions = createSidebarSessions(db, now);
  const authenticate = authenticateSidebar({ sessions, accounts: options.accounts, agents });
  router.use(
    sidebarPageRouter({
      db,
      accounts: options.accounts,
      agents,
      sessions,
      publicKeys: createAppPublicKeys({
        now: () => now().getTime(),
        minRefetchIntervalMs: options.publicKeyRefetchMs ?? 60_000,
      }),
      appId: options.appId,
      distDir: options.distDir,
      zendeskOriginOf: options.zendeskOriginOf,
      now,
      log: options.log ?? console.log,
    }),
  );
  const json = express.json({ limit: '8kb' });
  const incidentClientIds = new IncidentClientIds();
  const base = '/sidebar/tickets/:ticketId';

  /**
   * The ticket, read with the account's own client (another account's ticket is not found), when
   * the user may see it; a ticket they may not see answers as one that does not exist.
   */
  async function ticketOf(res: Response): Promise<TTicket | null> {
    const { ctx, ticketId, access } = callerOf(res);
    let ticket: TTicket;
    try {
      ticket = await ctx.zendesk.tickets.show(ticketId);
    } catch (error) {
      sendAppError(res, accountError(error));
      return null;
    }
    if (maySeeTicket(access, ticket)) return ticket;
    sendAppError(res, new AppError('ticket_not_found', { message: 'ticket not found' }));
    return null;
  }

  /** An action's ticket: also refused to users who may only read (light agents). */
  async function ticketToActOn(res: Response): Promise<TTicket | null> {
    const ticket = await ticketOf(res);
    if (!ticket || callerOf(res).access.canAct) return ticket;
    sendAppError(
      res,
      new AppError('read_only', {
        message: 'your Zendesk role may view this ticket but not act on it',
      }),
    );
    return null;
  }

  function answer(res: Response, result: ActionResult) {
    if ('error' in result) return sendAppError(res, result.error);
    res.status(result.status).json({ message: result.message });
  }

  function bodyOf<T>(req: Request, res: Response, schema: z.core.$ZodType<T>): T | null {
    const parsed = z.safeParse(schema, req.body ?? {});
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const message = `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`;
    sendAppError(res, new AppError('invalid_body', { message }));
    return null;
  }

  const noInbox = (res: Response) =>
    sendAppError(
      res,
      new AppError('not_implemented', {
        message: 'this connector instance does not queue ticket jobs',
      }),
    );

  /** A new token for a live one, after reading the user in Zendesk again. */
  router.post('/sidebar/session/renew', async (req, res) => {
    const token = bearerOf(req);
    const session = token ? await sessions.find(token) : null;
    if (!token || !session) return sendAppError(res, INVALID_SESSION);
    const ctx = await contextOfSession(options.accounts, session);
    if (ctx instanceof AppError) return sendAppError(res, ctx);
    try {
      const agent = await agents.check(ctx, session.userId, { fresh: true });
      if (!agent.ok) return sendAppError(res, INVALID_SESSION);
    } catch (error) {
      return sendAppError(res, accountError(error));
    }
    const renewed = await sessions.renew(token);
    if (!renewed) return sendAppError(res, INVALID_SESSION);
    res.set('Cache-Control', 'no-store').json({
      token: renewed.token,
      expiresAt: renewed.expiresAt.toISOString(),
      capAt: renewed.capAt.toISOString(),
    });
  });

  router.get(base, authenticate, async (_req, res) => {
    const { ctx, ticketId } = callerOf(res);
    // Not waiting for the ticket: for a linked ticket the durable link already names the incident.
    // Those reads are only answered once the ticket is read and the user may see it.
    const early = startEarlyViewReads(db, ctx, ticketId, incidentClientIds);
    const ticket = await ticketOf(res);
    if (!ticket) return;
    res.set('Cache-Control', 'no-store');
    res.json(await buildTicketView(db, ctx, ticket, now(), early));
  });

  router.post(`${base}/approve-takedown`, authenticate, json, async (req, res) => {
    const body = bodyOf(req, res, ZApproveBody);
    if (!body) return;
    const ticket = await ticketToActOn(res);
    if (!ticket) return;
    answer(res, await approveTakedown(db, callerOf(res), ticket, body.author));
  });

  router.post(`${base}/actions/:action`, authenticate, json, async (req, res) => {
    const action = ZIncidentAction.safeParse(req.params.action);
    if (!action.success)
      return sendAppError(res, new AppError('not_found', { message: 'no such action' }));
    const ticket = await ticketToActOn(res);
    if (!ticket) return;
    answer(res, await incidentAction(db, callerOf(res), ticket, action.data, now()));
  });

  router.post(`${base}/report`, authenticate, json, async (req, res) => {
    const body = bodyOf(req, res, ZReportBody);
    if (!body) return;
    if (!options.inbox) return noInbox(res);
    const ticket = await ticketToActOn(res);
    if (!ticket) return;
    answer(
      res,
      await queueThreatReport(db, options.inbox, callerOf(res), ticket, body.mode, now()),
    );
  });

  router.post(`${base}/retry-link`, authenticate, json, async (_req, res) => {
    if (!options.inbox) return noInbox(res);
    const ticket = await ticketToActOn(res);
    if (!ticket) return;
    answer(res, await retryLink(db, options.inbox, callerOf(res), ticket, now()));
  });

  // threats found in the ticket, duplicates caught before a report
  router.get(`${base}/threats`, authenticate, async (_req, res) => {
    const ticket = await ticketOf(res);
    if (!ticket) return;
    try {
      const threats = await readTicketThreats(db, callerOf(res).ctx, ticket);
      res.set('Cache-Control', 'no-store').json({ threats });
    } catch (error) {
      sendAppError(res, accountError(error));
    }
  });

  router.get(`${base}/duplicates`, authenticate, async (req, res) => {
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

  router.post(`${base}/threats/report`, authenticate, json, async (req, res) => {
    const body = bodyOf(req, res, ZFoundThreatReportBody);
    if (!body) return;
    if (!options.inbox) return noInbox(res);
    const ticket = await ticketToActOn(res);
    if (!ticket) return;
    const value = threatValueOf(body.value)!;
    try {
      answer(
        res,
        await reportFoundThreat(db, options.inbox, callerOf(res), ticket, value, body.mode, now()),
      );
    } catch (error) {
      sendAppError(res, accountError(error));
    }
  });

  router.post(`${base}/link-existing`, authenticate, json, async (req, res) => {
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

  router.post(`${base}/forwards/:forwardId/retry`, authenticate, json, async (req, res) => {
    if (!options.inbox) return noInbox(res);
    if (!(await ticketToActOn(res))) return;
    const forwardId = String(req.params.forwardId);
    answer(res, await retryForward(db, options.inbox, callerOf(res), forwardId, now()));
  });

  return router;
}

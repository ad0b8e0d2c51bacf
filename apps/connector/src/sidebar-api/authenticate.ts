// Every sidebar API route: the Bearer session token (opened from a ZAF JWT Zendesk signed, see
// sidebar-page.ts) names the account, the installation and the user; nothing the browser sends
// says who is asking. The user is then read from Zendesk (role, restriction, groups) and the
// ticket in the path is checked against what they may see once it is read (sidebar-api-router).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  type AccountContext,
  type AccountContextProvider,
  AccountUnavailableError,
} from '../accounts';
import type { AgentAccess, AgentChecker } from './agent-access';
import { AppError, sendAppError } from '../http';
import { accountError } from './sidebar-errors';
import type { SidebarSession, SidebarSessions } from './sidebar-sessions';

/** Who acts on which ticket: the author of every note, approval and history entry. */
export interface ActingAgent {
  ctx: AccountContext;
  ticketId: number;
  /** The Zendesk user. */
  agentId: number;
  /** The user's email as Zendesk has it. */
  agentEmail: string;
  /** The user's name as Zendesk has it: how notes name the person (never a user id). */
  agentName: string;
}

export interface SidebarCaller extends ActingAgent {
  access: AgentAccess;
}

export function callerOf(res: Response): SidebarCaller {
  return res.locals.sidebarCaller as SidebarCaller;
}

/** One answer for every session that does not hold: it tells nothing about accounts or users. */
export const INVALID_SESSION: AppError = new AppError('invalid_session', {
  message: 'no valid sidebar session; open the ticket in Zendesk again',
});

export function bearerOf(req: Request): string | null {
  const match = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec((req.get('authorization') ?? '').trim());
  return match ? match[1]! : null;
}

/** The account context of a session; unknown accounts get the invalid-session answer. */
export async function contextOfSession(
  accounts: AccountContextProvider,
  session: SidebarSession,
): Promise<AccountContext | AppError> {
  try {
    return await accounts.forAccount(session.accountId);
  } catch (error) {
    if (error instanceof AccountUnavailableError && error.reason === 'unknown_account')
      return INVALID_SESSION;
    return accountError(error);
  }
}

export function authenticateSidebar(options: {
  sessions: SidebarSessions;
  accounts: AccountContextProvider;
  agents: AgentChecker;
}): RequestHandler<Record<string, string>> {
  return async (req: Request<Record<string, string>>, res: Response, next: NextFunction) => {
    const token = bearerOf(req);
    const session = token ? await options.sessions.find(token) : null;
    if (!session) return sendAppError(res, INVALID_SESSION);

    const pathTicket = req.params.ticketId ?? '';
    if (!/^\d{1,15}$/.test(pathTicket) || Number(pathTicket) <= 0)
      return sendAppError(res, new AppError('ticket_not_found', { message: 'ticket not found' }));

    const ctx = await contextOfSession(options.accounts, session);
    if (ctx instanceof AppError) return sendAppError(res, ctx);
    try {
      const agent = await options.agents.check(ctx, session.userId);
      if (!agent.ok)
        return sendAppError(res, new AppError('agent_not_in_account', { message: agent.message }));
      const caller: SidebarCaller = {
        ctx,
        ticketId: Number(pathTicket),
        agentId: session.userId,
        agentEmail: agent.access.email,
        agentName: agent.access.name,
        access: agent.access,
      };
      res.locals.sidebarCaller = caller;
    } catch (error) {
      return sendAppError(res, accountError(error));
    }
    next();
  };
}

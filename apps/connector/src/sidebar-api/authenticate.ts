// Every sidebar route: the Bearer JWT verified with the secret of the installation it names, the
// agent verified against that account, and the ticket in the path equal to the token's ticket.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AccountContext, AccountContextProvider } from '../accounts/account-context';
import type { AgentChecker } from './agent-check';
import { accountError, sendSidebarError } from './sidebar-errors';
import { unverifiedSubdomain, verifySidebarToken } from './sidebar-token';

export interface SidebarInstallations {
  /** The installation of a Zendesk subdomain with its shared secret (unsealed); null when none. */
  find(subdomain: string): Promise<{ accountId: string; sharedSecret: string } | null>;
}

export interface SidebarCaller {
  ctx: AccountContext;
  ticketId: number;
  agentId: number;
  /** The agent's email as Zendesk has it, verified. */
  agentEmail: string;
}

export function callerOf(res: Response): SidebarCaller {
  return res.locals.sidebarCaller as SidebarCaller;
}

const unauthorised = (res: Response, code: string, message: string) =>
  sendSidebarError(res, { status: 401, code, message });

export function authenticateSidebar(options: {
  installations: SidebarInstallations;
  accounts: AccountContextProvider;
  agents: AgentChecker;
  now: () => Date;
  clockToleranceSeconds: number;
}): RequestHandler<Record<string, string>> {
  return async (req: Request<Record<string, string>>, res: Response, next: NextFunction) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/.exec(header.trim());
    if (!match) return unauthorised(res, 'invalid_token', 'missing or malformed Bearer token');
    const token = match[1]!;

    const subdomain = unverifiedSubdomain(token);
    const installation = subdomain ? await options.installations.find(subdomain) : null;
    if (!installation)
      return unauthorised(res, 'invalid_token', 'the token names no installed account');

    const verified = await verifySidebarToken(token, installation.sharedSecret, {
      now: options.now(),
      clockToleranceSeconds: options.clockToleranceSeconds,
    });
    if (!verified.ok) return unauthorised(res, verified.code, verified.message);
    const { claims } = verified;

    const pathTicket = req.params.ticketId ?? '';
    if (!/^\d{1,19}$/.test(pathTicket) || Number(pathTicket) !== claims.ticket_id)
      return unauthorised(res, 'invalid_token', 'the token was issued for another ticket');

    let ctx: AccountContext;
    try {
      ctx = await options.accounts.forAccount(installation.accountId);
      if (ctx.subdomain.toLowerCase() !== claims.subdomain.toLowerCase())
        return unauthorised(res, 'invalid_token', 'the token names another account');
      const agent = await options.agents.check(ctx, claims.agent_id, claims.agent_email);
      if (!agent.ok) return unauthorised(res, 'agent_not_in_account', agent.message);
      const caller: SidebarCaller = {
        ctx,
        ticketId: claims.ticket_id,
        agentId: claims.agent_id,
        agentEmail: agent.email,
      };
      res.locals.sidebarCaller = caller;
    } catch (error) {
      return sendSidebarError(res, accountError(error));
    }
    next();
  };
}

// A sidebar session renewed: a new token for a live one, after reading the user in Zendesk again.
import express, { type Router } from 'express';
import type { AccountContextProvider } from '../accounts';
import { AppError, sendAppError } from '../http';
import type { AgentChecker } from './agent-access';
import { bearerOf, contextOfSession, INVALID_SESSION } from './authenticate';
import { accountError } from './sidebar-errors';
import type { SidebarSessions } from './sidebar-sessions';

export function sessionRenewRouter(options: {
  accounts: AccountContextProvider;
  agents: AgentChecker;
  sessions: SidebarSessions;
}): Router {
  const { accounts, agents, sessions } = options;
  const router = express.Router();
  router.post('/sidebar/session/renew', async (req, res) => {
    const token = bearerOf(req);
    const session = token ? await sessions.find(token) : null;
    if (!token || !session) return sendAppError(res, INVALID_SESSION);
    const ctx = await contextOfSession(accounts, session);
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
  return router;
}

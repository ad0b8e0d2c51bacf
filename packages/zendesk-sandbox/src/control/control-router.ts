// The sandbox's own API under /_sandbox, one module per group of routes.
import express, { Router } from 'express';
import type { SandboxContext } from '../api/context';
import type { TokenService } from '../oauth/token-service';
import { recordNotFound } from '../state/sandbox-state';
import { accountControlRoutes } from './control-accounts';
import { appControlRoutes } from './control-apps';
import { oauthControlRoutes } from './control-oauth';
import { ticketControlRoutes } from './control-tickets';
import { userControlRoutes } from './control-users';
import { ZFaultRule, type FaultInjector } from './faults';

/** The sandbox's own API under /_sandbox: set-up, acting as people, inspection and fault injection. */
export function controlRouter(
  ctx: SandboxContext,
  tokens: TokenService,
  faults: FaultInjector,
  sandboxClientId: string,
): Router {
  const router = Router();
  router.use(express.json({ limit: '60mb' }));
  accountControlRoutes(router, ctx);
  userControlRoutes(router, ctx);
  appControlRoutes(router, ctx);
  oauthControlRoutes(router, ctx, tokens, sandboxClientId);
  ticketControlRoutes(router, ctx);

  router.post('/faults', (req, res) => {
    res.status(201).json({ fault: faults.add(ZFaultRule.parse(req.body)) });
  });

  router.get('/faults', (_req, res) => {
    res.json({ faults: faults.list() });
  });

  router.delete('/faults', (_req, res) => {
    faults.clear();
    res.status(204).end();
  });

  router.delete('/faults/:id', (req, res) => {
    if (!faults.remove(Number(req.params.id))) throw recordNotFound();
    res.status(204).end();
  });

  return router;
}

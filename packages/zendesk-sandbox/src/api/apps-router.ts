import { Router } from 'express';
import { recordNotFound } from '../state/sandbox-state';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';

/** The app installations of the account, and an installed app's public key (Zendesk's Apps API). */
export function appsRouter(ctx: SandboxContext): Router {
  const router = Router();
  const { state } = ctx;

  router.get('/api/v2/apps/installations{.json}', requireScope('apps', 'read'), (_req, res) => {
    const { account } = caller(res);
    res.json({
      installations: state.apps
        .installationsOf(account.subdomain)
        .map((i) => ({ ...i, enabled: true, settings: {} })),
    });
  });

  // An admin removes the app from the account (Admin Center, or this endpoint): its installation
  // is no longer listed, and the app's public key is no longer served to the account.
  router.delete(
    '/api/v2/apps/installations/:id{.json}',
    requireScope('apps', 'write', 'admin'),
    (req, res) => {
      const { account } = caller(res);
      if (!state.apps.uninstall(account.subdomain, Number(req.params.id))) throw recordNotFound();
      res.status(204).end();
    },
  );

  router.get('/api/v2/apps/:appId/public_key.pem', requireScope('apps', 'read'), (req, res) => {
    const { account } = caller(res);
    const appId = Number(req.params.appId);
    if (!state.apps.installationsOf(account.subdomain).some((i) => i.app_id === appId))
      throw recordNotFound();
    res.type('application/x-pem-file').send(state.apps.keyOf(appId).publicKeyPem);
  });

  return router;
}

// The control API's apps: an app's signing key rotated, an app installed on or removed from an
// account.
import type { Router } from 'express';
import type { SandboxContext } from '../api/context';
import { recordNotFound } from '../state/sandbox-state';

export function appControlRoutes(router: Router, ctx: SandboxContext): void {
  // The app's signing key: a new pair, as when Zendesk rotates an app's key.
  router.post('/apps/:appId/rotate-key', (req, res) => {
    const appId = Number(req.params.appId);
    if (!Number.isSafeInteger(appId) || appId <= 0) throw recordNotFound();
    ctx.state.apps.rotateKey(appId);
    res.json({ app_id: appId, public_key: ctx.state.apps.keyOf(appId).publicKeyPem });
  });

  router.post('/accounts/:subdomain/apps/:appId/install', (req, res) => {
    const acc = ctx.state.requireAccount(String(req.params.subdomain));
    const appId = Number(req.params.appId);
    if (!Number.isSafeInteger(appId) || appId <= 0) throw recordNotFound();
    res
      .status(201)
      .json({ installation: { id: ctx.state.apps.install(acc.subdomain, appId), app_id: appId } });
  });

  // The app uninstalled from the account, as an admin does in Admin Center.
  router.delete('/accounts/:subdomain/apps/:appId/install', (req, res) => {
    const acc = ctx.state.requireAccount(String(req.params.subdomain));
    const appId = Number(req.params.appId);
    const installation = ctx.state.apps
      .installationsOf(acc.subdomain)
      .find((i) => i.app_id === appId);
    if (!installation) throw recordNotFound();
    ctx.state.apps.uninstall(acc.subdomain, installation.id);
    res.status(204).end();
  });
}

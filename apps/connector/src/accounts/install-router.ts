// The marketplace install: an admin names the subdomain, approves the global client on Zendesk,
// and comes back to /oauth/callback with a code, which is exchanged at once (codes live 120 s;
// install-callback.ts).
import express, { type Router } from 'express';
import type { AccountsRouterOptions } from './install-options';
import { oauthCallbackHandler } from './install-callback';
import { installForm } from './install-pages';
import { createInstallState } from './install-states';
import { setStateCookie } from './oauth-state-cookie';
import { oauthStartLimiter, pageSecurityHeaders } from './page-protection';
import { redirectToAuthorization, subdomainOrForm } from './oauth-start';
import { unionScopes } from './scopes';

export function accountsRouter(options: AccountsRouterOptions): Router {
  const { db, oauth } = options;
  const now = options.now ?? Date.now;
  const cookies = options.cookies ?? { secure: new URL(oauth.redirectUri).protocol === 'https:' };
  const router = express.Router();
  const headers = pageSecurityHeaders({
    baseUrlTemplate: oauth.baseUrlTemplate,
    secure: cookies.secure,
  });
  router.use(['/install', '/oauth/callback'], headers);

  router.get('/install', options.startLimiter ?? oauthStartLimiter(), async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const subdomain = subdomainOrForm(req, res, installForm);
    if (!subdomain) return;
    const state = await createInstallState(
      db,
      subdomain,
      new Date(now()),
      'install',
      options.maxStoredStates,
    );
    setStateCookie(res, cookies, state);
    // Setup's scopes for the first run, plus the steady state's so the token can be narrowed to
    // a literal subset afterwards (a refresh may only ask for scopes granted before).
    const scope = unionScopes(oauth.setupScope, oauth.scope);
    redirectToAuthorization(res, oauth, subdomain, scope, state);
  });

  router.get('/oauth/callback', oauthCallbackHandler(options, cookies, now));

  return router;
}

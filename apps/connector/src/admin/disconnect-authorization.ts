// "Authorise the removal with Zendesk": a disconnect needs setup's scopes again to delete what
// setup created (the stored token was narrowed after setup). The signed-in admin is sent to Zendesk
// with a single-use state marked `disconnect`, for their own account; the callback takes a
// ten-minute `read write` token from an admin of that same Zendesk account (the installation's
// webhook tells, zendesk-account-identity.ts), keeps it sealed beside the credential
// (disconnect/removal-token.ts) and sends the browser back to the admin page to confirm. The
// callback's checks and refusals are the sign-in's (admin-grant.ts).
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { TDatabase } from '@incident-desk/db';
import {
  createInstallState,
  oauthStartLimiter,
  pageSecurityHeaders,
  redirectToAuthorization,
  setStateCookie,
  type TZendeskOAuthConfig,
} from '../accounts';
import { REMOVAL_AUTHORIZE_URL, REMOVAL_TOKEN_SECONDS, storeRemovalToken } from '../disconnect';
import type { SecretBox } from '../secrets';
import { readSessionCookie, readSessionMarker, type CookiePolicy } from './admin-cookie';
import { receiveAdminGrant } from './admin-grant';
import { findAdminSession, findAdminSessionByHash } from './admin-sessions';

const DISCONNECT_GRANT = {
  refusedTitle: 'Disconnect not authorised',
  again: 'Start again from the admin page.',
  adminAction: 'disconnect incident-desk',
  expiresIn: REMOVAL_TOKEN_SECONDS,
};

/** Where the browser lands once Zendesk granted the removal: the admin page asks to confirm. */
const DISCONNECT_AUTHORIZED_PAGE = '/admin/?disconnect=authorized';

export interface DisconnectAuthorizationOptions {
  db: TDatabase;
  secretBox: SecretBox;
  oauth: TZendeskOAuthConfig;
  cookies: CookiePolicy;
  now: () => number;
  fetch?: typeof fetch;
  startLimiter?: RequestHandler;
}

/** GET /admin/disconnect/authorize: the signed-in admin's account only; anyone else goes to sign in. */
export function disconnectAuthorizationRouter(options: DisconnectAuthorizationOptions): Router {
  const { db, oauth, now } = options;
  const router = express.Router();
  router.get(
    REMOVAL_AUTHORIZE_URL,
    pageSecurityHeaders({ baseUrlTemplate: oauth.baseUrlTemplate, secure: options.cookies.secure }),
    options.startLimiter ?? oauthStartLimiter(),
    async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      const token = readSessionCookie(req, options.cookies);
      const session = token ? await findAdminSession(db, token, new Date(now())) : null;
      if (!session) {
        res.redirect(303, '/admin/');
        return;
      }
      const state = await createInstallState(db, session.subdomain, new Date(now()), 'disconnect');
      setStateCookie(res, options.cookies, state);
      redirectToAuthorization(res, oauth, session.subdomain, oauth.setupScope, state);
    },
  );
  return router;
}

/** The callback's `disconnect` branch (install-router dispatches on the state's purpose). */
export function completeDisconnectAuthorization(options: DisconnectAuthorizationOptions) {
  const { db, now } = options;
  return async (
    input: { subdomain: string; code: string },
    req: Request,
    res: Response,
  ): Promise<void> => {
    res.setHeader('Cache-Control', 'no-store');
    const grant = await receiveAdminGrant(
      options,
      {
        ...DISCONNECT_GRANT,
        scope: options.oauth.setupScope,
        // only from the browser signed in to this account's page
        refusal: async (account) => {
          // The Strict session cookie does not come with this navigation from Zendesk; its Lax
          // marker does.
          const marker = readSessionMarker(req, options.cookies);
          const session = marker ? await findAdminSessionByHash(db, marker, new Date(now())) : null;
          return session?.accountId === account.id
            ? null
            : `Sign in to the admin page of ${input.subdomain} first.`;
        },
      },
      input,
      res,
    );
    if (!grant) return;
    await storeRemovalToken(db, options.secretBox, grant.accountId, {
      accessToken: grant.tokens.accessToken,
      expiresAt: grant.tokens.accessExpiresAt,
    });
    res.redirect(303, DISCONNECT_AUTHORIZED_PAGE);
  };
}

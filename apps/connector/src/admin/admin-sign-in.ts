// "Sign in with Zendesk" for the admin page: the same global OAuth client and registered redirect
// URI as the install, a single-use state marked admin_sign_in, the smallest scope that tells who
// signed in (users:read). The token is used once for users/me and revoked; only a Zendesk admin of
// an installed account gets a session, and only for that account (admin-grant.ts). A browser
// already signed in for another account is asked first (admin-session-start.ts).
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { TDatabase } from '@incident-desk/db';
import {
  ADMIN_SIGN_IN_SCOPE,
  createInstallState,
  escapeHtml,
  htmlPage,
  messagePage,
  oauthStartLimiter,
  pageSecurityHeaders,
  redirectToAuthorization,
  revokeToken,
  setStateCookie,
  subdomainField,
  subdomainOrForm,
  type TZendeskOAuthConfig,
} from '../accounts';
import { readSessionCookie, type CookiePolicy } from './admin-cookie';
import { receiveAdminGrant, type AdminGrantFlow } from './admin-grant';
import { setSessionCookies, startAdminSession } from './admin-session-start';
import { confirmPendingSession, deleteAdminSession } from './admin-sessions';

const SIGN_IN_GRANT: AdminGrantFlow = {
  refusedTitle: 'Sign-in refused',
  again: 'Sign in again.',
  adminAction: 'open the admin page',
  scope: ADMIN_SIGN_IN_SCOPE,
  // used within the second; the shortest lifetime Zendesk accepts
  expiresIn: 300,
};

export interface AdminSignInOptions {
  db: TDatabase;
  oauth: TZendeskOAuthConfig;
  cookies: CookiePolicy;
  now: () => number;
  fetch?: typeof fetch;
  /** Limits sign-in starts per client (shared with /install). Default: a limiter of its own. */
  startLimiter?: RequestHandler;
  /** The connector's public origin; a confirmation posted from elsewhere is refused. */
  publicOrigin?: string;
}

function signInForm(problem?: string, typed?: string): string {
  return htmlPage(
    'Sign in to the incident-desk admin page',
    `${problem ? `<p id="error">${escapeHtml(problem)}</p>` : ''}
    <form method="get" action="sign-in">
      ${subdomainField(typed, problem !== undefined)}
      <button type="submit" id="sign-in">Sign in with Zendesk</button>
    </form>`,
  );
}

export function adminSignInRouter(options: AdminSignInOptions): Router {
  const { db, oauth, now } = options;
  const router = express.Router();
  router.use(
    '/admin/sign-in',
    pageSecurityHeaders({ baseUrlTemplate: oauth.baseUrlTemplate, secure: options.cookies.secure }),
  );
  router.get('/admin/sign-in', options.startLimiter ?? oauthStartLimiter(), async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const subdomain = subdomainOrForm(req, res, signInForm);
    if (!subdomain) return;
    // Every subdomain is sent to Zendesk alike, so this page does not tell which are installed.
    const state = await createInstallState(db, subdomain, new Date(now()), 'admin_sign_in');
    setStateCookie(res, options.cookies, state);
    redirectToAuthorization(res, oauth, subdomain, ADMIN_SIGN_IN_SCOPE, state);
  });
  router.post(
    '/admin/sign-in/confirm',
    express.urlencoded({ extended: false, limit: '1kb' }),
    async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      const origin = req.get('origin');
      if (origin !== undefined && options.publicOrigin && origin !== options.publicOrigin) {
        res
          .status(403)
          .type('html')
          .send(messagePage('Sign-in refused', 'Cross-origin request refused.', 'error'));
        return;
      }
      const body = (req.body ?? {}) as Record<string, unknown>;
      const token = typeof body.token === 'string' ? body.token : '';
      if (!(await confirmPendingSession(db, token, new Date(now())))) {
        res
          .status(400)
          .type('html')
          .send(
            messagePage(
              'Sign-in expired',
              'This sign-in is no longer waiting for confirmation. Sign in again.',
              'error',
            ),
          );
        return;
      }
      const previous = readSessionCookie(req, options.cookies);
      if (previous) await deleteAdminSession(db, previous);
      setSessionCookies(res, options.cookies, token);
      res.redirect(303, '/admin/');
    },
  );
  return router;
}

/** The callback's admin_sign_in branch (install-router dispatches on the state's purpose). */
export function completeAdminSignIn(options: AdminSignInOptions) {
  return async (
    input: { subdomain: string; code: string },
    req: Request,
    res: Response,
  ): Promise<void> => {
    const grant = await receiveAdminGrant(options, SIGN_IN_GRANT, input, res);
    if (!grant) return;
    // the sign-in token has done its job (who signed in, for which account): it does not outlive
    // the request
    await revokeToken(grant.baseUrl, grant.tokens.accessToken, grant.zendesk);
    await startAdminSession(
      options,
      {
        accountId: grant.accountId,
        subdomain: grant.subdomain,
        zendeskUserId: grant.user.id,
        userName: grant.user.name,
        locale: grant.user.locale ?? null,
      },
      'sign-in',
      req,
      res,
    );
  };
}

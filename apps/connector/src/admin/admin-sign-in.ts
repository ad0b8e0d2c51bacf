// "Sign in with Zendesk" for the admin page: the same global OAuth client and registered redirect
// URI as the install, a single-use state marked admin_sign_in, the smallest scope that tells who
// signed in (users:read). The token is used once for users/me and revoked; only a Zendesk admin of
// an installed account gets a session, and only for that account.
import express, { type Response, type Router } from 'express';
import type { TDatabase } from '@incident-desk/db';
import { escapeHtml, htmlPage, messagePage } from '../accounts/html-page';
import { createInstallState } from '../accounts/install-states';
import { OAuthGrantError, requestTokens } from '../accounts/oauth-token-endpoint';
import { readSignedInUser, revokeToken } from '../accounts/signed-in-user';
import {
  ADMIN_SIGN_IN_SCOPE,
  normalizeSubdomain,
  zendeskBaseUrl,
  type TZendeskOAuthConfig,
} from '../accounts/zendesk-oauth-config';
import { setSessionCookie, type CookiePolicy } from './admin-cookie';
import { ADMIN_SESSION_TTL_MS, createAdminSession } from './admin-sessions';

export interface AdminSignInOptions {
  db: TDatabase;
  oauth: TZendeskOAuthConfig;
  cookies: CookiePolicy;
  now: () => number;
  fetch?: typeof fetch;
}

function signInForm(problem?: string): string {
  return htmlPage(
    'Sign in to the incident-desk admin page',
    `${problem ? `<p id="error">${escapeHtml(problem)}</p>` : ''}
    <form method="get" action="sign-in">
      <label>Zendesk subdomain <input name="subdomain" id="subdomain" required pattern="[A-Za-z0-9-]+" autocomplete="off"></label>
      <button type="submit" id="sign-in">Sign in with Zendesk</button>
    </form>`,
  );
}

export function adminSignInRouter(options: AdminSignInOptions): Router {
  const { db, oauth, now } = options;
  const router = express.Router();
  router.get('/admin/sign-in', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (req.query.subdomain === undefined) {
      res.type('html').send(signInForm());
      return;
    }
    const subdomain = normalizeSubdomain(req.query.subdomain);
    if (!subdomain) {
      res.status(400).type('html').send(signInForm('That is not a Zendesk subdomain.'));
      return;
    }
    // Every subdomain is sent to Zendesk alike, so this page does not tell which are installed.
    const state = await createInstallState(db, subdomain, new Date(now()), 'admin_sign_in');
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: oauth.clientId,
      redirect_uri: oauth.redirectUri,
      scope: ADMIN_SIGN_IN_SCOPE,
      state,
    });
    res.redirect(
      302,
      `${zendeskBaseUrl(oauth.baseUrlTemplate, subdomain)}/oauth/authorizations/new?${params}`,
    );
  });
  return router;
}

/** The callback's admin_sign_in branch (install-router dispatches on the state's purpose). */
export function completeAdminSignIn(options: AdminSignInOptions) {
  const { db, oauth, now } = options;
  const doFetch = options.fetch ?? fetch;
  return async (input: { subdomain: string; code: string }, res: Response): Promise<void> => {
    const refuse = (status: number, message: string) =>
      res
        .status(status)
        .type('html')
        .send(messagePage('Sign-in refused', message, 'error'));
    const baseUrl = zendeskBaseUrl(oauth.baseUrlTemplate, input.subdomain);
    let accessToken: string;
    try {
      const tokens = await requestTokens({
        baseUrl,
        body: {
          grant_type: 'authorization_code',
          code: input.code,
          client_id: oauth.clientId,
          client_secret: oauth.clientSecret,
          redirect_uri: oauth.redirectUri,
          scope: ADMIN_SIGN_IN_SCOPE,
          // used within the second; the shortest lifetimes Zendesk accepts
          expires_in: 300,
          refresh_token_expires_in: 604_800,
        },
        timeoutMs: Math.min(oauth.tokenRequestTimeoutMs, 120_000),
        now,
        fetch: doFetch,
      });
      accessToken = tokens.accessToken;
    } catch (cause) {
      refuse(
        cause instanceof OAuthGrantError ? 400 : 502,
        cause instanceof OAuthGrantError
          ? `Zendesk refused the authorization code (${cause.code}). Sign in again.`
          : 'Zendesk could not be reached. Sign in again.',
      );
      return;
    }
    const zendesk = { fetch: doFetch, timeoutMs: oauth.tokenRequestTimeoutMs };
    const me = await readSignedInUser(baseUrl, accessToken, zendesk);
    // The sign-in token has done its job: it should not outlive the request.
    await revokeToken(baseUrl, accessToken, zendesk);
    if (!me) {
      refuse(502, 'Zendesk did not say who signed in. Sign in again.');
      return;
    }
    const account = await db.prisma.account.findUnique({
      where: { zendeskSubdomain: input.subdomain },
      include: { zendeskCredential: true },
    });
    if (!account?.zendeskCredential) {
      refuse(403, `incident-desk is not installed for ${input.subdomain}.`);
      return;
    }
    if (me.role !== 'admin') {
      refuse(403, `Only a Zendesk admin of ${input.subdomain} can open the admin page.`);
      return;
    }
    const token = await createAdminSession(
      db,
      { accountId: account.id, zendeskUserId: me.id, userName: me.name },
      new Date(now()),
    );
    setSessionCookie(res, options.cookies, token, ADMIN_SESSION_TTL_MS / 1000);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, '/admin/');
  };
}

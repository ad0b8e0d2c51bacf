// "Sign in with Zendesk" for the admin page: the same global OAuth client and registered redirect
// URI as the install, a single-use state marked admin_sign_in, the smallest scope that tells who
// signed in (users:read). The token is used once for users/me and revoked; only a Zendesk admin of
// an installed account gets a session, and only for that account. A browser already signed in for
// another account is asked first: the new session only replaces it once the admin confirms.
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { TDatabase } from '@incident-desk/db';
import { escapeHtml, htmlPage, messagePage, subdomainField } from '../accounts/html-page';
import { createInstallState } from '../accounts/install-states';
import { setStateCookie } from '../accounts/oauth-state-cookie';
import { oauthStartLimiter, pageSecurityHeaders } from '../accounts/page-protection';
import { OAuthGrantError, requestTokens } from '../accounts/oauth-token-endpoint';
import { readSignedInUser, revokeToken } from '../accounts/signed-in-user';
import { holdsInstallationWebhook } from '../accounts/zendesk-account-identity';
import { redirectToAuthorization, subdomainOrForm } from '../accounts/oauth-start';
import {
  ADMIN_SIGN_IN_SCOPE,
  zendeskBaseUrl,
  type TZendeskOAuthConfig,
} from '../accounts/zendesk-oauth-config';
import {
  readSessionCookie,
  readSessionMarker,
  setSessionCookie,
  setSessionMarker,
  type CookiePolicy,
} from './admin-cookie';
import {
  ADMIN_SESSION_TTL_MS,
  confirmPendingSession,
  createAdminSession,
  deleteAdminSession,
  findAdminSessionByHash,
  sessionTokenHash,
} from './admin-sessions';

function startSession(res: Response, cookies: CookiePolicy, token: string): void {
  setSessionCookie(res, cookies, token, ADMIN_SESSION_TTL_MS / 1000);
  setSessionMarker(res, cookies, sessionTokenHash(token), ADMIN_SESSION_TTL_MS / 1000);
}

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

/** Asks before a sign-in for one account replaces this browser's session for another. */
function switchAccountPage(current: string, next: string, pendingToken: string): string {
  return htmlPage(
    'Switch the admin page to another account?',
    `<p id="switch-question">${escapeHtml(
      `This browser is signed in to the incident-desk admin page of ${current}. The sign-in that just finished is for ${next}. Continue only if you started it yourself.`,
    )}</p>
    <form method="post" action="/admin/sign-in/confirm">
      <input type="hidden" name="token" value="${escapeHtml(pendingToken)}">
      <button type="submit" id="switch">Switch to ${escapeHtml(next)}</button>
    </form>
    <p><a id="stay" href="/admin/">Stay signed in to ${escapeHtml(current)}</a></p>`,
  );
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
      startSession(res, options.cookies, token);
      res.redirect(303, '/admin/');
    },
  );
  return router;
}

/** The callback's admin_sign_in branch (install-router dispatches on the state's purpose). */
export function completeAdminSignIn(options: AdminSignInOptions) {
  const { db, oauth } = options;
  const doFetch = options.fetch ?? fetch;
  return async (
    input: { subdomain: string; code: string },
    req: Request,
    res: Response,
  ): Promise<void> => {
    const refuse = (status: number, message: string) =>
      res
        .status(status)
        .type('html')
        .send(messagePage('Sign-in refused', message, 'error'));
    const baseUrl = zendeskBaseUrl(oauth.baseUrlTemplate, input.subdomain);
    const exchanged = await exchangeSignInCode(options, baseUrl, input.code);
    if (typeof exchanged !== 'string') {
      refuse(exchanged.status, exchanged.message);
      return;
    }
    const accessToken = exchanged;
    const zendesk = { fetch: doFetch, timeoutMs: oauth.tokenRequestTimeoutMs };
    // Who signed in, and (below) whether their account is the installed one; then the sign-in
    // token has done its job and should not outlive the request.
    const me = await readSignedInUser(baseUrl, accessToken, zendesk);
    const account = await db.prisma.account.findUnique({
      where: { zendeskSubdomain: input.subdomain },
      include: { zendeskCredential: true, configuration: true },
    });
    const webhookId = account?.configuration?.zendeskWebhookId;
    const same =
      me?.role === 'admin' && account?.zendeskCredential && webhookId
        ? await holdsInstallationWebhook(baseUrl, accessToken, webhookId, zendesk)
        : 'same';
    await revokeToken(baseUrl, accessToken, zendesk);
    if (!me) {
      refuse(502, 'Zendesk did not say who signed in. Sign in again.');
      return;
    }
    if (!account?.zendeskCredential) {
      refuse(403, `incident-desk is not installed for ${input.subdomain}.`);
      return;
    }
    if (me.role !== 'admin') {
      refuse(403, `Only a Zendesk admin of ${input.subdomain} can open the admin page.`);
      return;
    }
    // An admin of whichever Zendesk account holds the subdomain now is not necessarily one of the
    // account that installed: the installation's webhook tells (zendesk-account-identity.ts).
    if (same !== 'same') {
      refuse(
        same === 'other' ? 403 : 502,
        same === 'other'
          ? `The Zendesk account at ${input.subdomain} is not the one incident-desk was installed for.`
          : 'Zendesk could not confirm the account. Sign in again.',
      );
      return;
    }
    const user = { accountId: account.id, zendeskUserId: me.id, userName: me.name };
    await openAdminSession(options, req, res, user, input.subdomain);
  };
}

/** The sign-in code exchanged for a short-lived token, or why it could not be. */
async function exchangeSignInCode(
  options: AdminSignInOptions,
  baseUrl: string,
  code: string,
): Promise<string | { status: number; message: string }> {
  const { oauth, now } = options;
  try {
    const tokens = await requestTokens({
      baseUrl,
      body: {
        grant_type: 'authorization_code',
        code,
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
      fetch: options.fetch ?? fetch,
    });
    return tokens.accessToken;
  } catch (cause) {
    return cause instanceof OAuthGrantError
      ? {
          status: 400,
          message: `Zendesk refused the authorization code (${cause.code}). Sign in again.`,
        }
      : { status: 502, message: 'Zendesk could not be reached. Sign in again.' };
  }
}

/**
 * The admin's session: started at once, or, when this browser is signed in to another account,
 * a page asking to switch first.
 */
async function openAdminSession(
  options: AdminSignInOptions,
  req: Request,
  res: Response,
  user: { accountId: string; zendeskUserId: number; userName: string },
  subdomain: string,
): Promise<void> {
  const { db, now } = options;
  // The Strict session cookie does not come with this navigation from Zendesk; its Lax marker does.
  const marker = readSessionMarker(req, options.cookies);
  const previous = marker ? await findAdminSessionByHash(db, marker, new Date(now())) : null;
  res.setHeader('Cache-Control', 'no-store');
  if (previous && previous.accountId !== user.accountId) {
    const pending = await createAdminSession(db, user, new Date(now()), true);
    res.type('html').send(switchAccountPage(previous.subdomain, subdomain, pending));
    return;
  }
  const token = await createAdminSession(db, user, new Date(now()));
  startSession(res, options.cookies, token);
  res.setHeader('Cache-Control', 'no-store');
  res.redirect(303, '/admin/');
}

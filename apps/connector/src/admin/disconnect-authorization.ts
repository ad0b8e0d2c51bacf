// "Authorise the removal with Zendesk": a disconnect needs setup's scopes again to delete what
// setup created (the stored token was narrowed after setup). The signed-in admin is sent to Zendesk
// with a single-use state marked `disconnect`, for their own account; the callback takes a
// ten-minute `read write` token from an admin of that same Zendesk account (the installation's
// webhook tells, zendesk-account-identity.ts), keeps it sealed beside the credential
// (disconnect/removal-token.ts) and sends the browser back to the admin page to confirm.
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { TDatabase } from '@incident-desk/db';
import { messagePage } from '../accounts/html-page';
import { createInstallState } from '../accounts/install-states';
import { redirectToAuthorization } from '../accounts/oauth-start';
import { setStateCookie } from '../accounts/oauth-state-cookie';
import {
  OAuthGrantError,
  requestTokens,
  type IssuedTokens,
} from '../accounts/oauth-token-endpoint';
import { oauthStartLimiter, pageSecurityHeaders } from '../accounts/page-protection';
import { readSignedInUser, revokeToken } from '../accounts/signed-in-user';
import { holdsInstallationWebhook } from '../accounts/zendesk-account-identity';
import { zendeskBaseUrl, type TZendeskOAuthConfig } from '../accounts/zendesk-oauth-config';
import { REMOVAL_AUTHORIZE_URL } from '../disconnect/disconnect-account';
import { REMOVAL_TOKEN_SECONDS, storeRemovalToken } from '../disconnect/removal-token';
import type { SecretBox } from '../secrets/secret-box';
import { readSessionCookie, readSessionMarker, type CookiePolicy } from './admin-cookie';
import { findAdminSession, findAdminSessionByHash } from './admin-sessions';

/** Where the browser lands once Zendesk granted the removal: the admin page asks to confirm. */
export const DISCONNECT_AUTHORIZED_PAGE = '/admin/?disconnect=authorized';

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
  const { db, oauth, now } = options;
  const doFetch = options.fetch ?? fetch;
  return async (
    input: { subdomain: string; code: string },
    req: Request,
    res: Response,
  ): Promise<void> => {
    res.setHeader('Cache-Control', 'no-store');
    const refuse = (status: number, message: string) =>
      res
        .status(status)
        .type('html')
        .send(messagePage('Disconnect not authorised', message, 'error'));
    const baseUrl = zendeskBaseUrl(oauth.baseUrlTemplate, input.subdomain);
    const tokens = await exchangeRemovalCode(options, baseUrl, input.code);
    if ('status' in tokens) {
      refuse(tokens.status, tokens.message);
      return;
    }
    const zendesk = { fetch: doFetch, timeoutMs: oauth.tokenRequestTimeoutMs };
    const me = await readSignedInUser(baseUrl, tokens.accessToken, zendesk);
    const account = await db.prisma.account.findUnique({
      where: { zendeskSubdomain: input.subdomain },
      include: { zendeskCredential: true, configuration: true },
    });
    // The Strict session cookie does not come with this navigation from Zendesk; its Lax marker does.
    const marker = readSessionMarker(req, options.cookies);
    const session = marker ? await findAdminSessionByHash(db, marker, new Date(now())) : null;
    const webhookId = account?.configuration?.zendeskWebhookId;
    const same =
      me?.role === 'admin' && account && webhookId
        ? await holdsInstallationWebhook(baseUrl, tokens.accessToken, webhookId, zendesk)
        : 'same';
    const refusal = ((): [number, string] | null => {
      if (!account?.zendeskCredential)
        return [403, `incident-desk is not installed for ${input.subdomain}.`];
      if (session?.accountId !== account.id)
        return [403, `Sign in to the admin page of ${input.subdomain} first.`];
      if (me?.role !== 'admin')
        return [403, `Only a Zendesk admin of ${input.subdomain} can disconnect incident-desk.`];
      if (same === 'other')
        return [
          403,
          `The Zendesk account at ${input.subdomain} is not the one incident-desk was installed for.`,
        ];
      if (same !== 'same')
        return [502, 'Zendesk could not confirm the account. Start again from the admin page.'];
      return null;
    })();
    if (refusal || !account) {
      await revokeToken(baseUrl, tokens.accessToken, zendesk);
      refuse(...(refusal ?? [403, 'Refused.']));
      return;
    }
    await storeRemovalToken(db, options.secretBox, account.id, {
      accessToken: tokens.accessToken,
      expiresAt: tokens.accessExpiresAt,
    });
    res.redirect(303, DISCONNECT_AUTHORIZED_PAGE);
  };
}

/** The code exchanged for a short-lived token with setup's scopes, or why it could not be. */
async function exchangeRemovalCode(
  options: DisconnectAuthorizationOptions,
  baseUrl: string,
  code: string,
): Promise<IssuedTokens | { status: number; message: string }> {
  const { oauth, now } = options;
  try {
    return await requestTokens({
      baseUrl,
      body: {
        grant_type: 'authorization_code',
        code,
        client_id: oauth.clientId,
        client_secret: oauth.clientSecret,
        redirect_uri: oauth.redirectUri,
        scope: oauth.setupScope,
        expires_in: REMOVAL_TOKEN_SECONDS,
        refresh_token_expires_in: 604_800,
      },
      timeoutMs: Math.min(oauth.tokenRequestTimeoutMs, 120_000),
      now,
      fetch: options.fetch ?? fetch,
    });
  } catch (cause) {
    return cause instanceof OAuthGrantError
      ? {
          status: 400,
          message: `Zendesk refused the authorization code (${cause.code}). Start again from the admin page.`,
        }
      : { status: 502, message: 'Zendesk could not be reached. Start again from the admin page.' };
  }
}

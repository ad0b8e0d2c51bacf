// The marketplace install: an admin names the subdomain, approves the global client on Zendesk,
// and comes back to /oauth/callback with a code, which is exchanged at once (codes live 120 s).
import express, { type RequestHandler, type Router } from 'express';
import type { TDatabase } from '@incident-desk/db';
import type { SecretBox } from '../secrets/secret-box';
import { reconnectAccount } from '../disconnect/account-disconnection';
import { ensureAccountConfiguration } from './account-configuration';
import { findOrCreateAccount, storeCredential } from './credential-store';
import { escapeHtml, htmlPage, messagePage, subdomainField } from './html-page';
import { consumeInstallState, createInstallState } from './install-states';
import { authorizationErrorText } from './oauth-error-texts';
import { setStateCookie, stateCookieMatches, type StateCookiePolicy } from './oauth-state-cookie';
import { oauthStartLimiter, pageSecurityHeaders } from './page-protection';
import { OAuthGrantError, requestTokens } from './oauth-token-endpoint';
import { readSignedInUser, revokeToken } from './signed-in-user';
import { redirectToAuthorization, subdomainOrForm } from './oauth-start';
import { unionScopes } from './scopes';
import { holdsInstallationWebhook } from './zendesk-account-identity';
import { zendeskBaseUrl, type TZendeskOAuthConfig } from './zendesk-oauth-config';

export interface AccountsRouterOptions {
  db: TDatabase;
  secretBox: SecretBox;
  oauth: TZendeskOAuthConfig;
  now?: () => number;
  fetch?: typeof fetch;
  /** Secure cookies (and the __Host- prefix); default: when the redirect URI is HTTPS. */
  cookies?: StateCookiePolicy;
  /** Limits starts per client; share one with the admin sign-in. Default: a limiter of its own. */
  startLimiter?: RequestHandler;
  /** Cap of the stored states (default MAX_STORED_STATES). */
  maxStoredStates?: number;
  /** Called after a successful install (e.g. to queue setup). */
  onInstalled?: (account: { accountId: string; subdomain: string }) => Promise<void> | void;
  /**
   * Answers a successful install's callback instead of the installed page: the admin page signs in
   * the admin the grant proved (../admin/admin-session-start.ts), so it needs no second sign-in.
   */
  onInstalledByAdmin?: (
    installed: { accountId: string; subdomain: string; installer: { id: number; name: string } },
    req: express.Request,
    res: express.Response,
  ) => Promise<void>;
  /**
   * Completes an authorization started for the admin page's sign-in (same client, same registered
   * redirect URI; the single-use state says which flow it is). Without it such states are refused.
   */
  onAdminSignIn?: (
    input: { subdomain: string; code: string },
    req: express.Request,
    res: express.Response,
  ) => Promise<void>;
  /**
   * Completes an authorization an admin started to disconnect the account (removing what setup
   * created needs setup's scopes again). Without it such states are refused.
   */
  onDisconnectAuthorized?: (
    input: { subdomain: string; code: string },
    req: express.Request,
    res: express.Response,
  ) => Promise<void>;
}

const STATE_PROBLEMS = {
  missing: 'The authorization response carries no state. Start the installation again.',
  unknown: 'This authorization was not started here. Start the installation again.',
  expired: 'This authorization took longer than 10 minutes. Start the installation again.',
  consumed: 'This authorization was already used. Start the installation again.',
  otherBrowser:
    'This authorization was not started in this browser, or took longer than 10 minutes. Start the installation again.',
} as const;

function installForm(problem?: string, typed?: string): string {
  return htmlPage(
    'Install incident-desk',
    `${problem ? `<p id="error">${escapeHtml(problem)}</p>` : ''}
    <form method="get" action="install">
      ${subdomainField(typed, problem !== undefined)}
      <button type="submit" id="continue">Continue</button>
    </form>`,
  );
}

/**
 * The success page. The sidebar needs no secret: Zendesk signs its page requests (signedUrls). A
 * re-authorisation of an account whose incident connection is saved is not asked for it again.
 */
function installedPage(subdomain: string, scope: string, hasIncidentKey: boolean): string {
  const next = hasIncidentKey
    ? 'to follow setup: the incident API key is already saved.'
    : 'to enter the incident API key and follow setup.';
  return htmlPage(
    'incident-desk is connected',
    `<p id="success">${escapeHtml(`incident-desk can now act for ${subdomain} with the scopes: ${scope}. Setup runs now, and the token is narrowed afterwards.`)}</p>
    <p><a id="admin-link" href="/admin/">Open the admin page</a> ${escapeHtml(next)}</p>`,
  );
}

function queryText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function accountsRouter(options: AccountsRouterOptions): Router {
  const { db, secretBox, oauth } = options;
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

  router.get('/oauth/callback', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const fail = (status: number, title: string, message: string) =>
      res
        .status(status)
        .type('html')
        .send(messagePage(title, message, 'error'));

    // The state counts only in the browser that started the flow (it holds the state's binding);
    // anywhere else it is refused before it is used up or a code is exchanged.
    // (The cookie is left to expire: once the state is used it binds nothing, and a reload of this
    // page can still say "already used".)
    const stateParam = queryText(req.query.state);
    if (stateParam && !stateCookieMatches(req, cookies, stateParam)) {
      fail(400, 'Installation link not valid', STATE_PROBLEMS.otherBrowser);
      return;
    }
    const state = await consumeInstallState(db, stateParam, new Date(now()));
    const error = queryText(req.query.error);
    if (error) {
      // Zendesk's error_description is not shown: the callback URL is anyone's to write.
      fail(
        error === 'access_denied' ? 403 : 400,
        'Installation not authorised',
        `${authorizationErrorText(error)} Nothing was installed.`,
      );
      return;
    }
    if (!state.ok) {
      fail(400, 'Installation link not valid', STATE_PROBLEMS[state.reason]);
      return;
    }
    const code = queryText(req.query.code);
    if (!code) {
      fail(400, 'Installation not authorised', 'Zendesk sent no authorization code.');
      return;
    }
    if (state.purpose === 'admin_sign_in') {
      if (!options.onAdminSignIn) {
        fail(400, 'Sign-in not available', 'The admin page is not served here.');
        return;
      }
      await options.onAdminSignIn({ subdomain: state.subdomain, code }, req, res);
      return;
    }
    if (state.purpose === 'disconnect') {
      if (!options.onDisconnectAuthorized) {
        fail(400, 'Disconnect not available', 'The admin page is not served here.');
        return;
      }
      await options.onDisconnectAuthorized({ subdomain: state.subdomain, code }, req, res);
      return;
    }
    let tokens;
    try {
      tokens = await requestTokens({
        baseUrl: zendeskBaseUrl(oauth.baseUrlTemplate, state.subdomain),
        body: {
          grant_type: 'authorization_code',
          code,
          client_id: oauth.clientId,
          client_secret: oauth.clientSecret,
          redirect_uri: oauth.redirectUri,
          scope: unionScopes(oauth.setupScope, oauth.scope),
          expires_in: oauth.accessTokenExpiresIn,
          refresh_token_expires_in: oauth.refreshTokenExpiresIn,
        },
        timeoutMs: Math.min(oauth.tokenRequestTimeoutMs, 120_000),
        now,
        fetch: options.fetch,
      });
    } catch (cause) {
      const detail =
        cause instanceof OAuthGrantError
          ? `Zendesk refused the authorization code (${cause.code}).`
          : 'Zendesk could not be reached to complete the authorization.';
      fail(
        cause instanceof OAuthGrantError ? 400 : 502,
        'Installation failed',
        `${detail} Start the installation again.`,
      );
      return;
    }
    const baseUrl = zendeskBaseUrl(oauth.baseUrlTemplate, state.subdomain);
    const zendesk = { fetch: options.fetch, timeoutMs: oauth.tokenRequestTimeoutMs };
    const installer = await readSignedInUser(baseUrl, tokens.accessToken, zendesk);
    if (installer?.role !== 'admin') {
      // An agent's token could not run setup, and installing is an admin's decision: keep nothing.
      await revokeToken(baseUrl, tokens.accessToken, zendesk);
      if (installer)
        fail(
          403,
          'Installation refused',
          `Only a Zendesk admin of ${state.subdomain} can install incident-desk. Nothing was installed.`,
        );
      else
        fail(
          502,
          'Installation failed',
          'Zendesk did not say who approved the installation. Start the installation again.',
        );
      return;
    }
    // A re-install must come from the Zendesk account that was installed, not from whoever holds
    // the subdomain now (zendesk-account-identity.ts).
    const existing = await db.prisma.account.findUnique({
      where: { zendeskSubdomain: state.subdomain },
      include: { configuration: true },
    });
    const webhookId = existing?.configuration?.zendeskWebhookId;
    if (webhookId) {
      const same = await holdsInstallationWebhook(baseUrl, tokens.accessToken, webhookId, zendesk);
      if (same !== 'same') {
        await revokeToken(baseUrl, tokens.accessToken, zendesk);
        if (same === 'other')
          fail(
            409,
            'Installation refused',
            `The Zendesk account at ${state.subdomain} is not the one incident-desk was installed for (it does not hold the installation's webhook). Nothing was changed.`,
          );
        else
          fail(
            502,
            'Installation failed',
            'Zendesk could not confirm the account. Start the installation again.',
          );
        return;
      }
    }
    const accountId = await findOrCreateAccount(db, state.subdomain);
    await storeCredential(db, secretBox, {
      accountId,
      grant: 'authorization_code',
      tokens,
      clientId: oauth.clientId,
    });
    await ensureAccountConfiguration(db, accountId);
    // an account found gone (app uninstalled, grant lost) acts again once an admin installs it
    await reconnectAccount(db, accountId);
    await options.onInstalled?.({ accountId, subdomain: state.subdomain });
    if (options.onInstalledByAdmin) {
      await options.onInstalledByAdmin(
        { accountId, subdomain: state.subdomain, installer },
        req,
        res,
      );
      return;
    }
    const hasIncidentKey = Boolean(existing?.configuration?.sealedIncidentApiKey);
    res.type('html').send(installedPage(state.subdomain, tokens.scope, hasIncidentKey));
  });

  return router;
}

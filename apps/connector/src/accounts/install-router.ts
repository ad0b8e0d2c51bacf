// The marketplace install: an admin names the subdomain, approves the global client on Zendesk,
// and comes back to /oauth/callback with a code, which is exchanged at once (codes live 120 s).
import express, { type Router } from 'express';
import type { TDatabase } from '@incident-desk/db';
import type { SecretBox } from '../secrets/secret-box';
import { createSidebarSecretIfMissing, ensureAccountConfiguration } from './account-configuration';
import { findOrCreateAccount, storeCredential } from './credential-store';
import { escapeHtml, htmlPage, messagePage } from './html-page';
import { consumeInstallState, createInstallState } from './install-states';
import { OAuthGrantError, requestTokens } from './oauth-token-endpoint';
import { readSignedInUser, revokeToken } from './signed-in-user';
import { unionScopes } from './scopes';
import {
  normalizeSubdomain,
  zendeskBaseUrl,
  type TZendeskOAuthConfig,
} from './zendesk-oauth-config';

export interface AccountsRouterOptions {
  db: TDatabase;
  secretBox: SecretBox;
  oauth: TZendeskOAuthConfig;
  now?: () => number;
  fetch?: typeof fetch;
  /** Called after a successful install (e.g. to queue setup). */
  onInstalled?: (account: { accountId: string; subdomain: string }) => Promise<void> | void;
  /**
   * Completes an authorization started for the admin page's sign-in (same client, same registered
   * redirect URI; the single-use state says which flow it is). Without it such states are refused.
   */
  onAdminSignIn?: (
    input: { subdomain: string; code: string },
    res: express.Response,
  ) => Promise<void>;
}

const STATE_PROBLEMS = {
  missing: 'The authorization response carries no state. Start the installation again.',
  unknown: 'This authorization was not started here. Start the installation again.',
  expired: 'This authorization took longer than 10 minutes. Start the installation again.',
  consumed: 'This authorization was already used. Start the installation again.',
} as const;

function installForm(problem?: string): string {
  return htmlPage(
    'Install incident-desk',
    `${problem ? `<p id="error">${escapeHtml(problem)}</p>` : ''}
    <form method="get" action="install">
      <label>Zendesk subdomain <input name="subdomain" id="subdomain" required pattern="[A-Za-z0-9-]+" autocomplete="off"></label>
      <button type="submit" id="continue">Continue</button>
    </form>`,
  );
}

/** The success page: shows a newly generated sidebar secret this once, and where it goes. */
function installedPage(subdomain: string, scope: string, sidebarSecret: string | null): string {
  const secretPart = sidebarSecret
    ? `<h2>Sidebar shared secret</h2>
    <p>Paste it into the incident-desk app's <strong>shared_secret</strong> setting (Zendesk Admin Center, Apps and integrations, Zendesk Support apps, incident-desk, Settings). It is shown only now; an admin can rotate it from the admin page.</p>
    <p><code id="shared-secret">${escapeHtml(sidebarSecret)}</code></p>`
    : `<p id="shared-secret-kept">The sidebar's shared secret was set before and is unchanged (rotate it from the admin page).</p>`;
  return htmlPage(
    'incident-desk is connected',
    `<p id="success">${escapeHtml(`incident-desk can now act for ${subdomain} with the scopes: ${scope}. Setup runs now, and the token is narrowed afterwards.`)}</p>
    ${secretPart}
    <p><a id="admin-link" href="/admin/">Open the admin page</a> to enter the incident API key and follow setup.</p>`,
  );
}

function queryText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function accountsRouter(options: AccountsRouterOptions): Router {
  const { db, secretBox, oauth } = options;
  const now = options.now ?? Date.now;
  const router = express.Router();

  router.get('/install', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (req.query.subdomain === undefined) {
      res.type('html').send(installForm());
      return;
    }
    const subdomain = normalizeSubdomain(req.query.subdomain);
    if (!subdomain) {
      res.status(400).type('html').send(installForm('That is not a Zendesk subdomain.'));
      return;
    }
    const state = await createInstallState(db, subdomain, new Date(now()));
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: oauth.clientId,
      redirect_uri: oauth.redirectUri,
      // Setup's scopes for the first run, plus the steady state's so the token can be narrowed to
      // a literal subset afterwards (a refresh may only ask for scopes granted before).
      scope: unionScopes(oauth.setupScope, oauth.scope),
      state,
    });
    res.redirect(
      302,
      `${zendeskBaseUrl(oauth.baseUrlTemplate, subdomain)}/oauth/authorizations/new?${params}`,
    );
  });

  router.get('/oauth/callback', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const fail = (status: number, title: string, message: string) =>
      res
        .status(status)
        .type('html')
        .send(messagePage(title, message, 'error'));

    const state = await consumeInstallState(db, queryText(req.query.state), new Date(now()));
    const error = queryText(req.query.error);
    if (error) {
      const description = queryText(req.query.error_description);
      fail(
        error === 'access_denied' ? 403 : 400,
        'Installation not authorised',
        `Zendesk answered ${error}${description ? `: ${description}` : ''}. Nothing was installed.`,
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
      await options.onAdminSignIn({ subdomain: state.subdomain, code }, res);
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
    const accountId = await findOrCreateAccount(db, state.subdomain);
    await storeCredential(db, secretBox, {
      accountId,
      grant: 'authorization_code',
      tokens,
      clientId: oauth.clientId,
    });
    await ensureAccountConfiguration(db, accountId);
    const sidebarSecret = await createSidebarSecretIfMissing(db, secretBox, accountId);
    await options.onInstalled?.({ accountId, subdomain: state.subdomain });
    res.type('html').send(installedPage(state.subdomain, tokens.scope, sidebarSecret));
  });

  return router;
}

// /oauth/callback: the authorization's state checked (single use, this browser), then the flow it
// started completed: the admin page's sign-in, a disconnect, or an install, whose code is
// exchanged at once (codes live 120 s) and kept only when an admin of the installed account
// approved it.
import type express from 'express';
import { reconnectAccount } from './account-disconnection';
import { ensureAccountConfiguration } from './account-configuration';
import { findOrCreateAccount, storeCredential } from './credential-store';
import { messagePage } from './html-page';
import type { AccountsRouterOptions } from './install-options';
import { installedPage, STATE_PROBLEMS } from './install-pages';
import { consumeInstallState } from './install-states';
import { authorizationErrorText } from './oauth-error-texts';
import { stateCookieMatches, type StateCookiePolicy } from './oauth-state-cookie';
import { OAuthGrantError, requestTokens, type IssuedTokens } from './oauth-token-endpoint';
import { readSignedInUser, revokeToken } from './signed-in-user';
import { unionScopes } from './scopes';
import { holdsInstallationWebhook } from './zendesk-account-identity';
import { zendeskBaseUrl } from './zendesk-oauth-config';

/** A page that says why the authorization went nowhere. */
interface Refusal {
  status: number;
  title: string;
  message: string;
}

function queryText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function sendRefusal(res: express.Response, refusal: Refusal): void {
  res
    .status(refusal.status)
    .type('html')
    .send(messagePage(refusal.title, refusal.message, 'error'));
}

export function oauthCallbackHandler(
  options: AccountsRouterOptions,
  cookies: StateCookiePolicy,
  now: () => number,
): (req: express.Request, res: express.Response) => Promise<void> {
  const { db } = options;
  return async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const fail = (status: number, title: string, message: string) =>
      sendRefusal(res, { status, title, message });

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
    await completeInstall(options, state.subdomain, code, now, req, res);
  };
}

async function completeInstall(
  options: AccountsRouterOptions,
  subdomain: string,
  code: string,
  now: () => number,
  req: express.Request,
  res: express.Response,
): Promise<void> {
  const { db, secretBox, oauth } = options;
  const tokens = await exchangeCode(options, subdomain, code, now);
  if ('status' in tokens) return sendRefusal(res, tokens);
  const baseUrl = zendeskBaseUrl(oauth.baseUrlTemplate, subdomain);
  const zendesk = { fetch: options.fetch, timeoutMs: oauth.tokenRequestTimeoutMs };
  const installer = await installingAdmin(baseUrl, tokens.accessToken, zendesk, subdomain);
  if ('refused' in installer) return sendRefusal(res, installer.refused);
  // A re-install must come from the Zendesk account that was installed, not from whoever holds
  // the subdomain now (zendesk-account-identity.ts).
  const existing = await db.prisma.account.findUnique({
    where: { zendeskSubdomain: subdomain },
    include: { configuration: true },
  });
  const webhookId = existing?.configuration?.zendeskWebhookId;
  if (webhookId) {
    const other = await notTheInstalledAccount(
      baseUrl,
      tokens.accessToken,
      webhookId,
      zendesk,
      subdomain,
    );
    if (other) return sendRefusal(res, other);
  }
  const accountId = await findOrCreateAccount(db, subdomain);
  await storeCredential(db, secretBox, {
    accountId,
    grant: 'authorization_code',
    tokens,
    clientId: oauth.clientId,
  });
  await ensureAccountConfiguration(db, accountId);
  // an account found gone (app uninstalled, grant lost) acts again once an admin installs it
  await reconnectAccount(db, accountId);
  await options.onInstalled?.({ accountId, subdomain });
  if (options.onInstalledByAdmin)
    return options.onInstalledByAdmin({ accountId, subdomain, installer }, req, res);
  const hasIncidentKey = Boolean(existing?.configuration?.sealedIncidentApiKey);
  res.type('html').send(installedPage(subdomain, tokens.scope, hasIncidentKey));
}

/** The code exchanged for setup's and the steady state's scopes, or why it could not be. */
async function exchangeCode(
  options: AccountsRouterOptions,
  subdomain: string,
  code: string,
  now: () => number,
): Promise<IssuedTokens | Refusal> {
  const { oauth } = options;
  try {
    return await requestTokens({
      baseUrl: zendeskBaseUrl(oauth.baseUrlTemplate, subdomain),
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
    return {
      status: cause instanceof OAuthGrantError ? 400 : 502,
      title: 'Installation failed',
      message: `${detail} Start the installation again.`,
    };
  }
}

type ZendeskCall = { fetch: typeof fetch | undefined; timeoutMs: number };

/** An agent's token could not run setup, and installing is an admin's decision: keep nothing. */
/** The admin who approved the install, or the refusal of anyone else's token (revoked). */
async function installingAdmin(
  baseUrl: string,
  accessToken: string,
  zendesk: ZendeskCall,
  subdomain: string,
): Promise<{ id: number; name: string; locale: string | null } | { refused: Refusal }> {
  const installer = await readSignedInUser(baseUrl, accessToken, zendesk);
  if (installer?.role === 'admin')
    return { id: installer.id, name: installer.name, locale: installer.locale ?? null };
  await revokeToken(baseUrl, accessToken, zendesk);
  const refused: Refusal = installer
    ? {
        status: 403,
        title: 'Installation refused',
        message: `Only a Zendesk admin of ${subdomain} can install incident-desk. Nothing was installed.`,
      }
    : {
        status: 502,
        title: 'Installation failed',
        message: 'Zendesk did not say who approved the installation. Start the installation again.',
      };
  return { refused };
}

/** A re-install whose token is not the installed account's (it lacks the installation's webhook). */
async function notTheInstalledAccount(
  baseUrl: string,
  accessToken: string,
  webhookId: string,
  zendesk: ZendeskCall,
  subdomain: string,
): Promise<Refusal | null> {
  const same = await holdsInstallationWebhook(baseUrl, accessToken, webhookId, zendesk);
  if (same === 'same') return null;
  await revokeToken(baseUrl, accessToken, zendesk);
  return same === 'other'
    ? {
        status: 409,
        title: 'Installation refused',
        message: `The Zendesk account at ${subdomain} is not the one incident-desk was installed for (it does not hold the installation's webhook). Nothing was changed.`,
      }
    : {
        status: 502,
        title: 'Installation failed',
        message: 'Zendesk could not confirm the account. Start the installation again.',
      };
}

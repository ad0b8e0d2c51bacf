// The OAuth callback of the admin page's own flows (sign-in, a disconnect's authorisation): the
// code is exchanged, then the grant counts only from a Zendesk admin of an installed account, and
// of the Zendesk account that installed it (the installation's webhook tells,
// zendesk-account-identity.ts), not whoever holds the subdomain now. Otherwise the token is
// revoked and the browser reads why, in the flow's words.
import type { Response } from 'express';
import type { TDatabase } from '@incident-desk/db';
import {
  holdsInstallationWebhook,
  type IssuedTokens,
  messagePage,
  OAuthGrantError,
  readSignedInUser,
  requestTokens,
  revokeToken,
  type SignedInUser,
  type TZendeskOAuthConfig,
  zendeskBaseUrl,
  type ZendeskCallOptions,
} from '../accounts';

export interface AdminGrantOptions {
  db: TDatabase;
  oauth: TZendeskOAuthConfig;
  now: () => number;
  fetch?: typeof fetch;
}

/** What one flow asks Zendesk for and how it speaks to the browser when refused. */
export interface AdminGrantFlow {
  /** The refusal page's title, e.g. "Sign-in refused". */
  refusedTitle: string;
  /** What the admin does next after a passing failure, e.g. "Sign in again." */
  again: string;
  /** What only an admin may do, e.g. "open the admin page". */
  adminAction: string;
  scope: string;
  /** The access token's lifetime (seconds). */
  expiresIn: number;
  /** A refusal of the flow's own, checked once the account is known to be installed. */
  refusal?: (account: { id: string }) => Promise<string | null>;
}

export interface AdminGrant {
  accountId: string;
  subdomain: string;
  user: SignedInUser;
  tokens: IssuedTokens;
  baseUrl: string;
  zendesk: ZendeskCallOptions;
}

type Refusal = [status: number, message: string];

/** The grant when it counts; null once the refusal page has been sent (and the token revoked). */
export async function receiveAdminGrant(
  options: AdminGrantOptions,
  flow: AdminGrantFlow,
  input: { subdomain: string; code: string },
  res: Response,
): Promise<AdminGrant | null> {
  const { db, oauth, now } = options;
  const doFetch = options.fetch ?? fetch;
  const refuse = ([status, message]: Refusal) => {
    res
      .status(status)
      .type('html')
      .send(messagePage(flow.refusedTitle, message, 'error'));
    return null;
  };
  const { subdomain } = input;
  const baseUrl = zendeskBaseUrl(oauth.baseUrlTemplate, subdomain);
  let tokens: IssuedTokens;
  try {
    tokens = await requestTokens({
      baseUrl,
      body: {
        grant_type: 'authorization_code',
        code: input.code,
        client_id: oauth.clientId,
        client_secret: oauth.clientSecret,
        redirect_uri: oauth.redirectUri,
        scope: flow.scope,
        expires_in: flow.expiresIn,
        // the shortest refresh lifetime Zendesk accepts; the refresh token is never used
        refresh_token_expires_in: 604_800,
      },
      timeoutMs: Math.min(oauth.tokenRequestTimeoutMs, 120_000),
      now,
      fetch: doFetch,
    });
  } catch (cause) {
    return refuse(
      cause instanceof OAuthGrantError
        ? [400, `Zendesk refused the authorization code (${cause.code}). ${flow.again}`]
        : [502, `Zendesk could not be reached. ${flow.again}`],
    );
  }
  const zendesk = { fetch: doFetch, timeoutMs: oauth.tokenRequestTimeoutMs };
  const me = await readSignedInUser(baseUrl, tokens.accessToken, zendesk);
  const account = await db.prisma.account.findUnique({
    where: { zendeskSubdomain: subdomain },
    include: { zendeskCredential: true, configuration: true },
  });
  const refusal = await (async (): Promise<Refusal | null> => {
    if (!me) return [502, `Zendesk did not say who approved. ${flow.again}`];
    if (!account?.zendeskCredential)
      return [403, `incident-desk is not installed for ${subdomain}.`];
    const own = await flow.refusal?.(account);
    if (own) return [403, own];
    if (me.role !== 'admin')
      return [403, `Only a Zendesk admin of ${subdomain} can ${flow.adminAction}.`];
    const webhookId = account.configuration?.zendeskWebhookId;
    const same = webhookId
      ? await holdsInstallationWebhook(baseUrl, tokens.accessToken, webhookId, zendesk)
      : 'same';
    if (same === 'other')
      return [
        403,
        `The Zendesk account at ${subdomain} is not the one incident-desk was installed for.`,
      ];
    if (same !== 'same') return [502, `Zendesk could not confirm the account. ${flow.again}`];
    return null;
  })();
  if (refusal || !me || !account) {
    await revokeToken(baseUrl, tokens.accessToken, zendesk);
    return refuse(refusal ?? [403, 'Refused.']);
  }
  return { accountId: account.id, subdomain, user: me, tokens, baseUrl, zendesk };
}

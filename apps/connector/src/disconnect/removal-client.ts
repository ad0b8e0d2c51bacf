// The Zendesk client a disconnect removes setup's objects with: one that holds setup's scopes
// (`read write`, as an admin). The removal token an admin just granted (removal-token.ts); for a
// client-credentials account a new token of its own client; the stored token if it still has
// setup's scopes (Zendesk may have ignored the narrowing). Otherwise the admin must authorise first.
import type { TDatabase } from '@incident-desk/db';
import {
  type DatabaseAccountContextProvider,
  hasScopes,
  requestTokens,
  type TZendeskOAuthConfig,
  zendeskBaseUrl,
  zendeskClientWithToken,
  type ZendeskClient,
  type ZendeskMarketplaceIdentity,
} from '../accounts';
import type { SecretBox } from '../secrets';
import { openRemovalToken, REMOVAL_TOKEN_SECONDS } from './removal-token';

export interface RemovalClientDeps {
  db: TDatabase;
  secretBox: SecretBox;
  oauth: TZendeskOAuthConfig;
  accounts: Pick<DatabaseAccountContextProvider, 'zendeskFor'>;
  marketplace?: ZendeskMarketplaceIdentity | undefined;
  fetch?: typeof fetch;
  now: () => Date;
}

export interface RemovalClient {
  zendesk: ZendeskClient;
  /** A token the disconnect got for itself, revoked when it ends (not the stored credential). */
  ownToken: boolean;
}

function clientWithToken(
  deps: RemovalClientDeps,
  accountId: string,
  subdomain: string,
  token: string,
): ZendeskClient {
  // a ten-minute token is not renewed: a 401 means it is gone
  return zendeskClientWithToken({
    accountId,
    baseUrl: zendeskBaseUrl(deps.oauth.baseUrlTemplate, subdomain),
    token,
    marketplace: deps.marketplace,
    fetch: deps.fetch,
    maxRetryAfterMs: 3_000,
  });
}

/** Whether a disconnect can remove setup's objects now, without the admin authorising first. */
export async function canRemoveNow(
  deps: Pick<RemovalClientDeps, 'db' | 'secretBox' | 'oauth' | 'now'>,
  accountId: string,
): Promise<boolean> {
  const credential = await deps.db.prisma.zendeskCredential.findUnique({ where: { accountId } });
  if (!credential) return false;
  if (await openRemovalToken(deps.db, deps.secretBox, accountId, deps.now())) return true;
  if (credential.grant === 'client_credentials') return true;
  return credential.state === 'active' && hasScopes(credential.scope, deps.oauth.setupScope);
}

/** The client to remove with, or null when an admin must authorise the removal with Zendesk. */
export async function removalClient(
  deps: RemovalClientDeps,
  accountId: string,
  subdomain: string,
): Promise<RemovalClient | null> {
  const granted = await openRemovalToken(deps.db, deps.secretBox, accountId, deps.now());
  if (granted)
    return { zendesk: clientWithToken(deps, accountId, subdomain, granted), ownToken: true };
  const credential = await deps.db.prisma.zendeskCredential.findUnique({ where: { accountId } });
  if (!credential) return null;
  if (credential.grant === 'client_credentials') {
    // the connector's own client may ask for setup's scopes, for this disconnect only
    const tokens = await requestTokens({
      baseUrl: zendeskBaseUrl(deps.oauth.baseUrlTemplate, subdomain),
      body: {
        grant_type: 'client_credentials',
        client_id: deps.oauth.clientId,
        client_secret: deps.oauth.clientSecret,
        scope: deps.oauth.setupScope,
        expires_in: REMOVAL_TOKEN_SECONDS,
      },
      timeoutMs: deps.oauth.tokenRequestTimeoutMs,
      now: () => deps.now().getTime(),
      fetch: deps.fetch,
    });
    return {
      zendesk: clientWithToken(deps, accountId, subdomain, tokens.accessToken),
      ownToken: true,
    };
  }
  if (credential.state !== 'active' || !hasScopes(credential.scope, deps.oauth.setupScope))
    return null;
  return { zendesk: await deps.accounts.zendeskFor(accountId), ownToken: false };
}

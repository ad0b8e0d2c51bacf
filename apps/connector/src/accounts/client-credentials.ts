// One account with a local confidential client: no browser, no refresh token. The token acts as
// the user who created the client (use a dedicated integration user); the token provider asks
// for a new one under the same per-account lock before it expires.
import type { TDatabase } from '@incident-desk/db';
import type { SecretBox } from '../secrets';
import { ensureAccountConfiguration } from './account-configuration';
import { normalizeSubdomain } from '@incident-desk/zendesk-api';
import { findOrCreateAccount, storeCredential } from './credential-store';
import { requestTokens } from './oauth-token-endpoint';
import { zendeskBaseUrl, type TZendeskOAuthConfig } from './zendesk-oauth-config';

export async function connectWithClientCredentials(input: {
  db: TDatabase;
  secretBox: SecretBox;
  oauth: Pick<
    TZendeskOAuthConfig,
    | 'clientId'
    | 'clientSecret'
    | 'baseUrlTemplate'
    | 'scope'
    | 'accessTokenExpiresIn'
    | 'tokenRequestTimeoutMs'
  >;
  subdomain: string;
  now?: () => number;
  fetch?: typeof fetch;
}): Promise<{ accountId: string; scope: string }> {
  const subdomain = normalizeSubdomain(input.subdomain);
  if (!subdomain) throw new Error(`not a Zendesk subdomain: ${JSON.stringify(input.subdomain)}`);
  const tokens = await requestTokens({
    baseUrl: zendeskBaseUrl(input.oauth.baseUrlTemplate, subdomain),
    body: {
      grant_type: 'client_credentials',
      client_id: input.oauth.clientId,
      client_secret: input.oauth.clientSecret,
      scope: input.oauth.scope,
      expires_in: input.oauth.accessTokenExpiresIn,
    },
    timeoutMs: input.oauth.tokenRequestTimeoutMs,
    now: input.now ?? Date.now,
    fetch: input.fetch,
  });
  const accountId = await findOrCreateAccount(input.db, subdomain);
  await storeCredential(input.db, input.secretBox, {
    accountId,
    grant: 'client_credentials',
    tokens,
    clientId: input.oauth.clientId,
  });
  await ensureAccountConfiguration(input.db, accountId);
  return { accountId, scope: tokens.scope };
}

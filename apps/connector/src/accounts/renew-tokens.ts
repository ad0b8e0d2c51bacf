// A new token pair for a stored credential: a refresh when there is a refresh token, else a new
// client-credentials token. The caller holds the account lock (a refresh rotates the refresh token).
import { requestTokens, type IssuedTokens } from './oauth-token-endpoint';
import type { TZendeskOAuthConfig } from './zendesk-oauth-config';

export interface RenewTokensInput {
  oauth: TZendeskOAuthConfig;
  baseUrl: string;
  /** The refresh token in plain; absent: the client-credentials grant. */
  refreshToken?: string;
  /** The scope to ask for; absent on a refresh: the scope granted before. */
  scope?: string;
  now: () => number;
  fetch?: typeof fetch;
}

export function renewTokens(input: RenewTokensInput): Promise<IssuedTokens> {
  const { oauth } = input;
  const common = {
    client_id: oauth.clientId,
    client_secret: oauth.clientSecret,
    expires_in: oauth.accessTokenExpiresIn,
    ...(input.scope === undefined ? {} : { scope: input.scope }),
  };
  return requestTokens({
    baseUrl: input.baseUrl,
    body:
      input.refreshToken === undefined
        ? { grant_type: 'client_credentials', ...common }
        : {
            grant_type: 'refresh_token',
            refresh_token: input.refreshToken,
            refresh_token_expires_in: oauth.refreshTokenExpiresIn,
            ...common,
          },
    timeoutMs: oauth.tokenRequestTimeoutMs,
    now: input.now,
    fetch: input.fetch,
  });
}

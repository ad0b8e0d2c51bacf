// A Zendesk client on one short-lived token the caller already holds (a disconnect's removal
// token): never renewed, so a 401 means the token is gone and the account must authorise again.
import { ZendeskClient, type ZendeskMarketplaceIdentity } from '@incident-desk/zendesk-api';
import { AccountUnavailableError } from './account-context';

export interface FixedTokenClientInput {
  accountId: string;
  baseUrl: string;
  token: string;
  marketplace?: ZendeskMarketplaceIdentity | undefined;
  fetch?: typeof fetch | undefined;
  /** The longest Retry-After a call waits out in place. */
  maxRetryAfterMs: number;
}

export function zendeskClientWithToken(input: FixedTokenClientInput): ZendeskClient {
  return new ZendeskClient({
    baseUrl: input.baseUrl,
    tokenProvider: {
      getAccessToken: async () => input.token,
      refreshAfterUnauthorized: async () => {
        throw new AccountUnavailableError(input.accountId, 'reauthorization_required');
      },
    },
    marketplace: input.marketplace,
    ...(input.fetch ? { fetch: input.fetch } : {}),
    retry: { maxRetryAfterMs: input.maxRetryAfterMs },
  });
}

// After setup the stored token is replaced by one with only the steady-state scopes: a refresh
// asking for a subset of what was granted (authorization code), or a new client-credentials token.
// Under the account lock, like every other token change, because a refresh rotates the refresh token.
import type { TDatabase } from '@incident-desk/db';
import { secretBinding, type SecretBox } from '../secrets';
import { AccountUnavailableError } from './account-context';
import { withAccountLock } from './account-lock';
import { markIfGrantRevoked, storeRenewedTokens } from './credential-store';
import type { IssuedTokens } from './oauth-token-endpoint';
import { renewTokens } from './renew-tokens';
import { zendeskBaseUrl, type TZendeskOAuthConfig } from './zendesk-oauth-config';

export interface NarrowCredentialInput {
  db: TDatabase;
  secretBox: SecretBox;
  oauth: TZendeskOAuthConfig;
  accountId: string;
  subdomain: string;
  /** The scope to keep. */
  scope: string;
  now?: () => number;
  fetch?: typeof fetch;
}

/** Returns the scope Zendesk granted to the replacement token. */
export async function narrowCredential(input: NarrowCredentialInput): Promise<string> {
  const { db, secretBox, oauth, accountId } = input;
  const now = input.now ?? Date.now;
  const baseUrl = zendeskBaseUrl(oauth.baseUrlTemplate, input.subdomain);
  return withAccountLock(db, accountId, async () => {
    const row = await db.prisma.zendeskCredential.findUnique({ where: { accountId } });
    if (!row || row.state !== 'active') {
      throw new AccountUnavailableError(accountId, 'reauthorization_required');
    }
    let tokens: IssuedTokens;
    try {
      tokens = await renewTokens({
        oauth,
        baseUrl,
        ...(row.grant === 'client_credentials' || !row.sealedRefreshToken
          ? {}
          : {
              refreshToken: await secretBox.open(
                row.sealedRefreshToken,
                secretBinding.zendeskRefreshToken(row.accountId),
              ),
            }),
        scope: input.scope,
        now,
        fetch: input.fetch,
      });
    } catch (error) {
      await markIfGrantRevoked(db, accountId, error, new Date(now()));
      throw error;
    }
    await storeRenewedTokens(db, secretBox, row, tokens, oauth.clientId);
    return tokens.scope;
  });
}

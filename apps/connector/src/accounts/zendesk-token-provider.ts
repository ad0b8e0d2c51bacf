// Access tokens for one account's ZendeskClient. The row in the database is the truth: every
// process reads it, and refreshes happen under a per-account lock with a re-read first, because
// a refresh rotates the refresh token and the old one stops working at once.
import type { TDatabase } from '@incident-desk/db';
import type { ZendeskTokenProvider } from '@incident-desk/zendesk-api';
import { secretBinding, type SecretBox } from '../secrets';
import { AccountUnavailableError } from './account-context';
import { withAccountLock } from './account-lock';
import {
  markReauthorizationRequired,
  type CredentialGrantKind,
  recordCredentialError,
  markIfGrantRevoked,
  storeRenewedTokens,
} from './credential-store';
import { OAuthGrantError, type IssuedTokens } from './oauth-token-endpoint';
import { renewTokens } from './renew-tokens';
import { zendeskBaseUrl, type TZendeskOAuthConfig } from './zendesk-oauth-config';
import type { TokenRefreshOutcome } from '../metrics';

/** Refresh when less than this remains. */
export const REFRESH_SKEW_MS = 5 * 60 * 1000;

export interface ZendeskTokenProviderOptions {
  db: TDatabase;
  secretBox: SecretBox;
  oauth: TZendeskOAuthConfig;
  accountId: string;
  subdomain: string;
  now?: () => number;
  fetch?: typeof fetch;
  /** Told how each renewal ended (metrics). */
  onRefresh?: (outcome: TokenRefreshOutcome) => void;
}

export function createZendeskTokenProvider(
  options: ZendeskTokenProviderOptions,
): ZendeskTokenProvider {
  const { db, secretBox, oauth, accountId } = options;
  const now = options.now ?? Date.now;
  const baseUrl = zendeskBaseUrl(oauth.baseUrlTemplate, options.subdomain);
  let opened: { sealed: string; plain: string } | undefined;

  async function openAccessToken(sealed: string): Promise<string> {
    if (opened?.sealed !== sealed) {
      opened = {
        sealed,
        plain: await secretBox.open(sealed, secretBinding.zendeskAccessToken(accountId)),
      };
    }
    return opened.plain;
  }

  async function readUsable() {
    const row = await db.prisma.zendeskCredential.findUnique({ where: { accountId } });
    if (!row || row.state !== 'active') {
      throw new AccountUnavailableError(accountId, 'reauthorization_required');
    }
    return row;
  }

  const fresh = (expiresAt: Date) => expiresAt.getTime() - now() >= REFRESH_SKEW_MS;

  async function renew(rejected: string | undefined): Promise<string> {
    try {
      const { token, renewed } = await renewOnce(rejected);
      options.onRefresh?.(renewed ? 'refreshed' : 'already_refreshed');
      return token;
    } catch (error) {
      options.onRefresh?.(
        error instanceof AccountUnavailableError ? 'reauthorization_required' : 'failed',
      );
      throw error;
    }
  }

  async function renewOnce(
    rejected: string | undefined,
  ): Promise<{ token: string; renewed: boolean }> {
    return withAccountLock(db, accountId, async () => {
      const row = await readUsable();
      const current = await openAccessToken(row.sealedAccessToken);
      // Another caller (or process) may have renewed while this one waited for the lock.
      const alreadyRenewed =
        rejected === undefined ? fresh(row.accessExpiresAt) : current !== rejected;
      if (alreadyRenewed) return { token: current, renewed: false };
      // Tokens belong to the client that was given them: another client cannot refresh them.
      if (row.clientId !== null && row.clientId !== oauth.clientId) {
        await markReauthorizationRequired(
          db,
          accountId,
          `tokens were issued to OAuth client ${row.clientId}, not the configured ${oauth.clientId}`,
          new Date(now()),
        );
        throw new AccountUnavailableError(accountId, 'reauthorization_required');
      }

      const tokens = await requestRenewal(options, baseUrl, row, now);
      await storeRenewedTokens(db, secretBox, row, tokens, oauth.clientId);
      return { token: tokens.accessToken, renewed: true };
    });
  }

  return {
    async getAccessToken() {
      const row = await readUsable();
      if (fresh(row.accessExpiresAt)) return openAccessToken(row.sealedAccessToken);
      return renew(undefined);
    },
    refreshAfterUnauthorized: (rejected) => renew(rejected),
  };
}

/** The credential row a renewal reads. */
interface RenewableCredential {
  grant: CredentialGrantKind;
  scope: string;
  sealedRefreshToken: string | null;
  refreshExpiresAt: Date | null;
}

/**
 * New tokens from Zendesk: a client-credentials grant asks its client again, any other spends its
 * refresh token (an expired one, or a revoked grant, needs an admin to authorise again).
 */
async function requestRenewal(
  options: ZendeskTokenProviderOptions,
  baseUrl: string,
  row: RenewableCredential,
  now: () => number,
): Promise<IssuedTokens> {
  const { db, secretBox, oauth, accountId } = options;
  try {
    if (row.grant === 'client_credentials') {
      return await renewTokens({
        oauth,
        baseUrl,
        scope: row.scope,
        now,
        fetch: options.fetch,
      });
    }
    if (
      !row.sealedRefreshToken ||
      (row.refreshExpiresAt && row.refreshExpiresAt.getTime() <= now())
    ) {
      await markReauthorizationRequired(db, accountId, 'refresh token expired', new Date(now()));
      throw new AccountUnavailableError(accountId, 'reauthorization_required');
    }
    return await renewTokens({
      oauth,
      baseUrl,
      refreshToken: await secretBox.open(
        row.sealedRefreshToken,
        secretBinding.zendeskRefreshToken(accountId),
      ),
      now,
      fetch: options.fetch,
    });
  } catch (error) {
    if (await markIfGrantRevoked(db, accountId, error, new Date(now())))
      throw new AccountUnavailableError(accountId, 'reauthorization_required');
    if (error instanceof OAuthGrantError) {
      await recordCredentialError(db, accountId, error.message, new Date(now()));
    }
    throw error;
  }
}

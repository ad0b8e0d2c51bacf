// The account's Zendesk tokens at rest: always sealed, never logged. Plain values exist only in
// memory, on their way to or from the token endpoint and the API client.
import { isUniqueViolation, type TDatabase } from '@incident-desk/db';
import { markAccountDisconnected } from './account-disconnection';
import { secretBinding, type SecretBox } from '../secrets';
import { OAuthGrantError, type IssuedTokens } from './oauth-token-endpoint';

export type CredentialGrantKind = 'authorization_code' | 'client_credentials';

export interface ConnectionStatus {
  state: 'active' | 'reauthorization_required' | 'not_connected';
  grant: CredentialGrantKind | null;
  clientId: string | null;
  scope: string[];
  accessExpiresAt: Date | null;
  refreshExpiresAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
}

export async function findOrCreateAccount(db: TDatabase, subdomain: string): Promise<string> {
  const existing = await db.prisma.account.findUnique({ where: { zendeskSubdomain: subdomain } });
  if (existing) return existing.id;
  try {
    const created = await db.prisma.account.create({ data: { zendeskSubdomain: subdomain } });
    return created.id;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const raced = await db.prisma.account.findUniqueOrThrow({
      where: { zendeskSubdomain: subdomain },
    });
    return raced.id;
  }
}

/** Replaces the account's tokens (install, refresh, new client-credentials token) in one write. */
export async function storeCredential(
  db: TDatabase,
  secretBox: SecretBox,
  input: {
    accountId: string;
    grant: CredentialGrantKind;
    tokens: IssuedTokens;
    /** The OAuth client the tokens were issued to. */
    clientId: string;
  },
): Promise<void> {
  const { tokens } = input;
  const data = {
    grant: input.grant,
    clientId: input.clientId,
    sealedAccessToken: await secretBox.seal(
      tokens.accessToken,
      secretBinding.zendeskAccessToken(input.accountId),
    ),
    sealedRefreshToken: tokens.refreshToken
      ? await secretBox.seal(
          tokens.refreshToken,
          secretBinding.zendeskRefreshToken(input.accountId),
        )
      : null,
    accessExpiresAt: tokens.accessExpiresAt,
    refreshExpiresAt: tokens.refreshExpiresAt,
    scope: tokens.scope,
    state: 'active' as const,
    lastError: null,
    lastErrorAt: null,
  };
  await db.prisma.zendeskCredential.upsert({
    where: { accountId: input.accountId },
    create: { accountId: input.accountId, ...data },
    update: data,
  });
}

/**
 * The stored grant is dead (refused, expired, another client's): nothing can act for the account
 * until an admin installs again, so it is disconnected too (authorization_lost) and its work stops.
 */
export async function markReauthorizationRequired(
  db: TDatabase,
  accountId: string,
  reason: string,
  now: Date,
): Promise<void> {
  await db.prisma.zendeskCredential.updateMany({
    where: { accountId },
    data: { state: 'reauthorization_required', lastError: reason, lastErrorAt: now },
  });
  await markAccountDisconnected(db, accountId, 'authorization_lost', reason, now);
}

/** A problem admins should see that does not (yet) stop the account, e.g. a missing scope. */
export async function recordCredentialError(
  db: TDatabase,
  accountId: string,
  message: string,
  now: Date,
): Promise<void> {
  await db.prisma.zendeskCredential.updateMany({
    where: { accountId },
    data: { lastError: message, lastErrorAt: now },
  });
}

/** What the admin page shows about the Zendesk connection: no secret in it. */
export async function getConnectionStatus(
  db: TDatabase,
  accountId: string,
): Promise<ConnectionStatus> {
  const row = await db.prisma.zendeskCredential.findUnique({ where: { accountId } });
  if (!row) {
    return {
      state: 'not_connected',
      grant: null,
      clientId: null,
      scope: [],
      accessExpiresAt: null,
      refreshExpiresAt: null,
      lastError: null,
      lastErrorAt: null,
    };
  }
  return {
    state: row.state,
    grant: row.grant,
    clientId: row.clientId,
    scope: row.scope.split(/\s+/).filter(Boolean),
    accessExpiresAt: row.accessExpiresAt,
    refreshExpiresAt: row.refreshExpiresAt,
    lastError: row.lastError,
    lastErrorAt: row.lastErrorAt,
  };
}

/**
 * A renewal the token endpoint answered `invalid_grant`: the stored grant is dead and an
 * administrator must reconnect. Records that and says whether it was so.
 */
export async function markIfGrantRevoked(
  db: TDatabase,
  accountId: string,
  error: unknown,
  at: Date,
): Promise<boolean> {
  if (!(error instanceof OAuthGrantError && error.isInvalidGrant)) return false;
  await markReauthorizationRequired(db, accountId, error.message, at);
  return true;
}

/** Tokens renewed for a stored credential replace it, under the same grant. */
export function storeRenewedTokens(
  db: TDatabase,
  secretBox: SecretBox,
  row: { accountId: string; grant: CredentialGrantKind },
  tokens: IssuedTokens,
  clientId: string,
): Promise<void> {
  return storeCredential(db, secretBox, {
    accountId: row.accountId,
    grant: row.grant,
    tokens,
    clientId,
  });
}

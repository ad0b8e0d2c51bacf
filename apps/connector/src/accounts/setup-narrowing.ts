// After setup: the steady state needs less than setup did, so only the narrower token is kept
// (src/setup/SCOPES.md). What the report says when Zendesk kept more, or the token could not be
// narrowed.
import type { TDatabase } from '@incident-desk/db';
import type { SecretBox } from '../secrets';
import { stepErrorMessage } from '../setup';
import { narrowCredential } from './narrow-credential';
import { hasScopes } from './scopes';
import type { TZendeskOAuthConfig } from './zendesk-oauth-config';

/** The token's scope after narrowing, and what the report adds about it (may be empty). */
export async function narrowAfterSetup(
  deps: { db: TDatabase; secretBox: SecretBox; oauth: TZendeskOAuthConfig; fetch?: typeof fetch },
  accountId: string,
  subdomain: string,
  now: () => number,
): Promise<{ scopeAfter: string; narrowing: string }> {
  const { db, secretBox, oauth } = deps;
  try {
    const scopeAfter = await narrowCredential({
      db,
      secretBox,
      oauth,
      accountId,
      subdomain,
      scope: oauth.scope,
      now,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
    const narrowing = hasScopes(oauth.scope, scopeAfter)
      ? ''
      : ` Zendesk kept scopes beyond the steady state (${scopeAfter}).`;
    return { scopeAfter, narrowing };
  } catch (error) {
    const row = await db.prisma.zendeskCredential.findUnique({ where: { accountId } });
    return {
      scopeAfter: row?.scope ?? '',
      narrowing: ` The token could not be narrowed to "${oauth.scope}": ${stepErrorMessage(error)}.`,
    };
  }
}

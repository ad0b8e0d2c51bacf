// After setup: the steady state needs less than setup did, so only the narrower token is kept
// (src/setup/SCOPES.md). What the report says when Zendesk kept more, or the token could not be
// narrowed.
import type { TSetupNarrowing } from '@incident-desk/admin-contract';
import type { TDatabase } from '@incident-desk/db';
import type { SecretBox } from '../secrets';
import { stepErrorMessage } from '../setup';
import { narrowCredential } from './narrow-credential';
import { hasScopes } from './scopes';
import type { TZendeskOAuthConfig } from './zendesk-oauth-config';

/** The token's scope after narrowing, and what the report adds about it (nothing when narrowed). */
export async function narrowAfterSetup(
  deps: { db: TDatabase; secretBox: SecretBox; oauth: TZendeskOAuthConfig; fetch?: typeof fetch },
  accountId: string,
  subdomain: string,
  now: () => number,
): Promise<{ scopeAfter: string; narrowing?: TSetupNarrowing }> {
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
    return hasScopes(oauth.scope, scopeAfter)
      ? { scopeAfter }
      : { scopeAfter, narrowing: { code: 'kept_wider', scope: scopeAfter } };
  } catch (error) {
    const row = await db.prisma.zendeskCredential.findUnique({ where: { accountId } });
    return {
      scopeAfter: row?.scope ?? '',
      narrowing: { code: 'not_narrowed', scope: oauth.scope, reason: stepErrorMessage(error) },
    };
  }
}

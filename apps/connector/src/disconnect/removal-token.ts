// The token a disconnect removes setup's objects with. The stored token has the steady-state
// scopes only (setup/SCOPES.md), which cannot delete triggers, webhooks, views or fields; an admin
// grants `read write` once more for the disconnect, as for a rerun of setup. That token lives ten
// minutes, is kept sealed apart from the account's own credential (which it never replaces, so an
// abandoned disconnect leaves no broad token behind) and is revoked when the disconnect ends.
import type { TDatabase } from '@incident-desk/db';
import { secretBinding, type SecretBox } from '../secrets';

/** What the disconnect's authorization asks Zendesk for (its minimum is 300 s). */
export const REMOVAL_TOKEN_SECONDS = 600;

export async function storeRemovalToken(
  db: TDatabase,
  secretBox: SecretBox,
  accountId: string,
  token: { accessToken: string; expiresAt: Date },
): Promise<void> {
  await db.prisma.zendeskCredential.update({
    where: { accountId },
    data: {
      sealedRemovalToken: await secretBox.seal(
        token.accessToken,
        secretBinding.zendeskRemovalToken(accountId),
      ),
      removalTokenExpiresAt: token.expiresAt,
    },
  });
}

/** The removal token while it has at least a minute left, else null. */
export async function openRemovalToken(
  db: TDatabase,
  secretBox: SecretBox,
  accountId: string,
  now: Date,
): Promise<string | null> {
  const row = await db.prisma.zendeskCredential.findUnique({
    where: { accountId },
    select: { sealedRemovalToken: true, removalTokenExpiresAt: true },
  });
  if (!row?.sealedRemovalToken || !row.removalTokenExpiresAt) return null;
  if (row.removalTokenExpiresAt.getTime() - now.getTime() < 60_000) return null;
  return secretBox
    .open(row.sealedRemovalToken, secretBinding.zendeskRemovalToken(accountId))
    .catch(() => null);
}

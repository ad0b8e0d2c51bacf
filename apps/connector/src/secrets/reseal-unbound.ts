// The data migration to bound secrets: values sealed before bindings existed (no `bnd` in their
// header) are opened once and sealed again for the place they are in. It runs at every start-up
// and finds nothing once done; each write is conditional on the old value, so instances starting
// together, or a token refresh in between, never lose a newer value.
import type { TDatabase } from '@incident-desk/db';
import type { SecretBox } from './secret-box';
import { secretBinding } from './secret-bindings';

interface SealedPlace {
  value: string | null;
  binding: string;
  /** Writes the resealed value if the column still holds `old`; true when written. */
  write(old: string, resealed: string): Promise<boolean>;
}

/** A column's sealed value; `update` writes the resealed value where the column still holds `old`. */
function sealedPlace(
  value: string | null,
  binding: string,
  update: (old: string, resealed: string) => Promise<{ count: number }>,
): SealedPlace {
  return {
    value,
    binding,
    write: async (old, resealed) => (await update(old, resealed)).count === 1,
  };
}

async function sealedPlaces(db: TDatabase): Promise<SealedPlace[]> {
  const places: SealedPlace[] = [];
  for (const row of await db.prisma.zendeskCredential.findMany()) {
    const { accountId } = row;
    const bindings = {
      sealedAccessToken: secretBinding.zendeskAccessToken(accountId),
      sealedRefreshToken: secretBinding.zendeskRefreshToken(accountId),
    };
    for (const name of ['sealedAccessToken', 'sealedRefreshToken'] as const)
      places.push(
        sealedPlace(row[name], bindings[name], (old, resealed) =>
          db.prisma.zendeskCredential.updateMany({
            where: { accountId, [name]: old },
            data: { [name]: resealed },
          }),
        ),
      );
  }
  for (const row of await db.prisma.accountConfiguration.findMany()) {
    const { accountId } = row;
    const bindings = {
      sealedIncidentApiKey: secretBinding.incidentApiKey(accountId),
      sealedZendeskWebhookSecret: secretBinding.zendeskWebhookSecret(accountId),
    };
    for (const name of ['sealedIncidentApiKey', 'sealedZendeskWebhookSecret'] as const)
      places.push(
        sealedPlace(row[name], bindings[name], (old, resealed) =>
          db.prisma.accountConfiguration.updateMany({
            where: { accountId, [name]: old },
            data: { [name]: resealed },
          }),
        ),
      );
  }
  for (const row of await db.prisma.incidentSubscription.findMany()) {
    const binding = secretBinding.incidentSubscriptionSecret(row.accountId, row.clientId);
    for (const name of ['sealedSecret', 'sealedPreviousSecret'] as const)
      places.push(
        sealedPlace(row[name], binding, (old, resealed) =>
          db.prisma.incidentSubscription.updateMany({
            where: { id: row.id, [name]: old },
            data: { [name]: resealed },
          }),
        ),
      );
  }
  return places;
}

/** Reseals every unbound value for its place; returns how many were resealed. */
export async function resealUnboundSecrets(db: TDatabase, secretBox: SecretBox): Promise<number> {
  let resealed = 0;
  for (const place of await sealedPlaces(db)) {
    const old = place.value;
    if (old === null || secretBox.isBound(old)) continue;
    const plaintext = await secretBox.openUnbound(old);
    if (await place.write(old, await secretBox.seal(plaintext, place.binding))) resealed++;
  }
  return resealed;
}

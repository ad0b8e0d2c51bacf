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

/**
 * The sealed columns of one table's rows, each with the binding of its place; `update` writes a
 * resealed value where the row's column still holds the old one.
 */
function sealedColumns<Name extends string, Row extends Record<Name, string | null>>(
  rows: readonly Row[],
  bindings: Record<Name, (row: Row) => string>,
  update: (row: Row, name: Name, old: string, resealed: string) => Promise<{ count: number }>,
): SealedPlace[] {
  const names = Object.keys(bindings) as Name[];
  return rows.flatMap((row) =>
    names.map((name) => ({
      value: row[name],
      binding: bindings[name](row),
      write: async (old: string, resealed: string) =>
        (await update(row, name, old, resealed)).count === 1,
    })),
  );
}

async function sealedPlaces(db: TDatabase): Promise<SealedPlace[]> {
  const { zendeskCredential, accountConfiguration, incidentSubscription } = db.prisma;
  return [
    ...sealedColumns(
      await zendeskCredential.findMany(),
      {
        sealedAccessToken: (row) => secretBinding.zendeskAccessToken(row.accountId),
        sealedRefreshToken: (row) => secretBinding.zendeskRefreshToken(row.accountId),
      },
      ({ accountId }, name, old, resealed) =>
        zendeskCredential.updateMany({
          where: { accountId, [name]: old },
          data: { [name]: resealed },
        }),
    ),
    ...sealedColumns(
      await accountConfiguration.findMany(),
      {
        sealedIncidentApiKey: (row) => secretBinding.incidentApiKey(row.accountId),
        sealedZendeskWebhookSecret: (row) => secretBinding.zendeskWebhookSecret(row.accountId),
      },
      ({ accountId }, name, old, resealed) =>
        accountConfiguration.updateMany({
          where: { accountId, [name]: old },
          data: { [name]: resealed },
        }),
    ),
    ...sealedColumns(
      await incidentSubscription.findMany(),
      {
        sealedSecret: (row) =>
          secretBinding.incidentSubscriptionSecret(row.accountId, row.clientId),
        sealedPreviousSecret: (row) =>
          secretBinding.incidentSubscriptionSecret(row.accountId, row.clientId),
      },
      ({ id }, name, old, resealed) =>
        incidentSubscription.updateMany({ where: { id, [name]: old }, data: { [name]: resealed } }),
    ),
  ];
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

// Sealed secrets are bound to their account and column. Values sealed before (no binding
// in their header) are resealed for their place at start-up; afterwards a value copied to another
// account's row, or to another column, does not open where it was copied to.
import { randomBytes } from 'node:crypto';
import { CompactEncrypt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resealUnboundSecrets } from '../src/secrets/reseal-unbound';
import { createSecretBox, SecretBoxError } from '../src/secrets/secret-box';
import { secretBinding } from '../src/secrets/secret-bindings';
import { backends, openTestDatabase } from './support/test-database';

const key = { id: 'k1', key: new Uint8Array(randomBytes(32)) };
const box = createSecretBox([key], 'k1');

/** Sealed the way the connector sealed before bindings existed. */
const sealUnbound = (plaintext: string) =>
  new CompactEncrypt(new TextEncoder().encode(plaintext))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: 'k1' })
    .encrypt(key.key);

describe.each(backends)('binding sealed secrets to their place (%s)', (backend) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let a: string;
  let b: string;

  beforeAll(async () => {
    db = await openTestDatabase(backend);
    a = (await db.prisma.account.create({ data: { zendeskSubdomain: 'acme' } })).id;
    b = (await db.prisma.account.create({ data: { zendeskSubdomain: 'globex' } })).id;
    for (const [accountId, name] of [
      [a, 'acme'],
      [b, 'globex'],
    ] as const) {
      await db.prisma.zendeskCredential.create({
        data: {
          accountId,
          grant: 'authorization_code',
          sealedAccessToken: await sealUnbound(`access-${name}`),
          sealedRefreshToken: await sealUnbound(`refresh-${name}`),
          accessExpiresAt: new Date(Date.now() + 3_600_000),
          scope: 'read',
        },
      });
      await db.prisma.accountConfiguration.create({
        data: {
          accountId,
          sealedIncidentApiKey: await sealUnbound(`api-key-${name}`),
          sealedZendeskWebhookSecret: await sealUnbound(`webhook-${name}`),
        },
      });
      await db.prisma.incidentSubscription.create({
        data: {
          accountId,
          clientId: `cl_${name}`,
          receiverId: `rcv_${name}`,
          sealedSecret: await sealUnbound(`subscription-${name}`),
          sealedPreviousSecret: await sealUnbound(`previous-${name}`),
        },
      });
    }
  });
  afterAll(async () => {
    await db?.dispose();
  });

  it('refuses the old unbound values until they are resealed, then opens each in its place', async () => {
    const credential = await db.prisma.zendeskCredential.findUniqueOrThrow({
      where: { accountId: a },
    });
    await expect(
      box.open(credential.sealedAccessToken, secretBinding.zendeskAccessToken(a)),
    ).rejects.toThrow(/not bound/);

    // 2 accounts x (2 tokens + 2 configuration values + 2 subscription secrets)
    expect(await resealUnboundSecrets(db, box)).toBe(12);
    expect(await resealUnboundSecrets(db, box)).toBe(0);

    for (const [accountId, name] of [
      [a, 'acme'],
      [b, 'globex'],
    ] as const) {
      const row = await db.prisma.zendeskCredential.findUniqueOrThrow({ where: { accountId } });
      expect(
        await box.open(row.sealedAccessToken, secretBinding.zendeskAccessToken(accountId)),
      ).toBe(`access-${name}`);
      expect(
        await box.open(row.sealedRefreshToken!, secretBinding.zendeskRefreshToken(accountId)),
      ).toBe(`refresh-${name}`);
      const config = await db.prisma.accountConfiguration.findUniqueOrThrow({
        where: { accountId },
      });
      expect(
        await box.open(config.sealedIncidentApiKey!, secretBinding.incidentApiKey(accountId)),
      ).toBe(`api-key-${name}`);
      expect(
        await box.open(
          config.sealedZendeskWebhookSecret!,
          secretBinding.zendeskWebhookSecret(accountId),
        ),
      ).toBe(`webhook-${name}`);
      const subscription = await db.prisma.incidentSubscription.findFirstOrThrow({
        where: { accountId },
      });
      const binding = secretBinding.incidentSubscriptionSecret(accountId, `cl_${name}`);
      expect(await box.open(subscription.sealedSecret, binding)).toBe(`subscription-${name}`);
      expect(await box.open(subscription.sealedPreviousSecret!, binding)).toBe(`previous-${name}`);
    }
  });

  it('a value copied to another account’s row or to another column does not open there', async () => {
    const configA = await db.prisma.accountConfiguration.findUniqueOrThrow({
      where: { accountId: a },
    });
    // The review's move: A's incident API key written into B's row.
    await db.prisma.accountConfiguration.update({
      where: { accountId: b },
      data: { sealedIncidentApiKey: configA.sealedIncidentApiKey },
    });
    const configB = await db.prisma.accountConfiguration.findUniqueOrThrow({
      where: { accountId: b },
    });
    await expect(
      box.open(configB.sealedIncidentApiKey!, secretBinding.incidentApiKey(b)),
    ).rejects.toThrow(SecretBoxError);
    // A's webhook secret moved into A's own API key column
    await expect(
      box.open(configA.sealedZendeskWebhookSecret!, secretBinding.incidentApiKey(a)),
    ).rejects.toThrow(/another account or column/);
    // and a bound value is not "migrated" back into opening anywhere
    expect(await resealUnboundSecrets(db, box)).toBe(0);
  });
});

// The sandbox workspace signs sidebar tokens with the installation's shared_secret, which the demo
// knows in advance; the accounts module only generates a random one (ensureSidebarSecret), so the
// demo stores the known value itself, sealed like every other secret.
import type { TDatabase } from '@incident-desk/db';
import type { SecretBox } from '../secrets/secret-box';

export async function setSidebarSecret(
  db: TDatabase,
  secretBox: SecretBox,
  accountId: string,
  secret: string,
): Promise<'stored' | 'unchanged'> {
  const row = await db.prisma.accountConfiguration.findUnique({ where: { accountId } });
  if (row?.sealedSidebarSecret) {
    const current = await secretBox.open(row.sealedSidebarSecret).catch(() => null);
    if (current === secret) return 'unchanged';
  }
  const sealedSidebarSecret = await secretBox.seal(secret);
  await db.prisma.accountConfiguration.upsert({
    where: { accountId },
    create: { accountId, sealedSidebarSecret },
    update: { sealedSidebarSecret },
  });
  return 'stored';
}

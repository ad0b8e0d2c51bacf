import type { TDatabase } from '@incident-desk/db';

/** Every incident event marks the connection alive; a webhook.test also counts as a test. */
export async function recordIncidentEventHealth(
  db: TDatabase,
  accountId: string,
  at: Date,
  isTest: boolean,
): Promise<void> {
  const data = { lastIncidentEventAt: at, ...(isTest ? { lastWebhookTestAt: at } : {}) };
  await db.prisma.accountHealth.upsert({
    where: { accountId },
    create: { accountId, ...data },
    update: data,
  });
}

import type { TDatabase } from '@incident-desk/db';

const HEALTH_WRITE_INTERVAL_MS = 60_000;
const lastEventWritten = new Map<string, number>();

/**
 * Every incident event marks the connection alive; a webhook.test also counts as a test. The
 * subscription it came through (one per client) keeps its own times, so the admin sees which
 * client has delivered a real event and which only answered setup's webhook.test.
 */
export async function recordIncidentEventHealth(
  db: TDatabase,
  accountId: string,
  at: Date,
  isTest: boolean,
  via: { subscriptionId: string | undefined; clientId: string | undefined },
): Promise<void> {
  // a real event at most once a minute per subscription and process: the admin page shows minutes,
  // and two writes per event would sit on every event's path; a webhook.test always counts
  const key = `${accountId}|${via.subscriptionId ?? via.clientId ?? ''}`;
  const last = lastEventWritten.get(key);
  if (!isTest && last !== undefined && Math.abs(at.getTime() - last) < HEALTH_WRITE_INTERVAL_MS)
    return;
  const data = { lastIncidentEventAt: at, ...(isTest ? { lastWebhookTestAt: at } : {}) };
  await db.prisma.accountHealth.upsert({
    where: { accountId },
    create: { accountId, ...data },
    update: data,
  });
  // jobs queued before the receiver named the subscription fall back to the envelope's clientId
  const subscription = via.subscriptionId
    ? { receiverId: via.subscriptionId }
    : via.clientId
      ? { clientId: via.clientId }
      : null;
  if (subscription !== null)
    await db.prisma.incidentSubscription.updateMany({
      where: { accountId, ...subscription },
      data: isTest ? { lastTestAt: at } : { lastEventAt: at },
    });
  if (!isTest) lastEventWritten.set(key, at.getTime());
}

/** A signed Zendesk webhook delivery arrived for the account. */
export async function recordZendeskWebhookHealth(
  db: TDatabase,
  accountId: string,
  at: Date,
): Promise<void> {
  await db.prisma.accountHealth.upsert({
    where: { accountId },
    create: { accountId, lastZendeskWebhookAt: at },
    update: { lastZendeskWebhookAt: at },
  });
}

/**
 * recordZendeskWebhookHealth at most once per interval per account and process: the admin page
 * shows the time in minutes, and a database write per delivery would sit on every webhook's path.
 */
export function throttledZendeskWebhookHealth(
  db: TDatabase,
  intervalMs = 60_000,
): (accountId: string, at: Date) => Promise<void> {
  const lastWritten = new Map<string, number>();
  return async (accountId, at) => {
    const last = lastWritten.get(accountId);
    if (last !== undefined && at.getTime() - last < intervalMs) return;
    lastWritten.set(accountId, at.getTime());
    try {
      await recordZendeskWebhookHealth(db, accountId, at);
    } catch (error) {
      lastWritten.delete(accountId);
      throw error;
    }
  };
}

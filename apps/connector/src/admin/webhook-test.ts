// "Send a test delivery": asks the incident service to send webhook.test through each of the
// account's subscriptions. The receiver records its arrival (account-health.ts), which is what
// the first-run checklist reads; this call only asks.
import { AppError } from '../http/app-error';
import type { TDatabase } from '@incident-desk/db';
import type { DatabaseAccountContextProvider } from '../accounts/account-context-provider';

export type TestDeliveries =
  { requested: string[]; failed: { clientId: string; message: string }[] } | { error: AppError };

export async function sendTestDeliveries(
  db: TDatabase,
  accounts: DatabaseAccountContextProvider,
  accountId: string,
): Promise<TestDeliveries> {
  const subscriptions = await db.prisma.incidentSubscription.findMany({
    where: { accountId, externalId: { not: null } },
    select: { clientId: true, externalId: true },
    orderBy: { clientId: 'asc' },
  });
  if (subscriptions.length === 0)
    return {
      error: new AppError('no_subscription', {
        message: 'There is no incident-service subscription yet: run setup first.',
      }),
    };
  const clients = await accounts.clientsFor(accountId);
  const requested: string[] = [];
  const failed: { clientId: string; message: string }[] = [];
  for (const { clientId, externalId } of subscriptions) {
    try {
      await clients.incidents(clientId).webhooks.test(externalId!, { timeoutMs: 10_000 });
      requested.push(clientId);
    } catch {
      failed.push({
        clientId,
        message: 'the incident service did not accept the test request; run setup again',
      });
    }
  }
  return { requested, failed };
}

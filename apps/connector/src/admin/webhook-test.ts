// "Send a test delivery": asks the incident service to send webhook.test through each of the
// account's subscriptions, and Zendesk to test its webhook when the stored token may
// (accounts/zendesk-webhook-test.ts). The receivers record their arrival (account-health.ts), which
// is what the first-run checklist reads.
import { AppError } from '../http';
import type { TDatabase } from '@incident-desk/db';
import {
  canTestZendeskWebhook,
  type DatabaseAccountContextProvider,
  testZendeskWebhook,
  type ZendeskWebhookTest,
} from '../accounts';

export type TestDeliveries =
  | {
      requested: string[];
      failed: { clientId: string; message: string }[];
      /** Zendesk's side: delivered, or why not (the steady-state token cannot ask for it). */
      zendesk: ZendeskWebhookTest;
    }
  | { error: AppError };

export async function sendTestDeliveries(
  deps: { db: TDatabase; accounts: DatabaseAccountContextProvider; connectorUrl: string },
  accountId: string,
  now: Date,
): Promise<TestDeliveries> {
  const { db, accounts } = deps;
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
  return { requested, failed, zendesk: await zendeskSide(deps, accountId, now) };
}

async function zendeskSide(
  deps: { db: TDatabase; accounts: DatabaseAccountContextProvider; connectorUrl: string },
  accountId: string,
  now: Date,
): Promise<ZendeskWebhookTest> {
  const [credential, configuration] = await Promise.all([
    deps.db.prisma.zendeskCredential.findUnique({ where: { accountId } }),
    deps.db.prisma.accountConfiguration.findUnique({ where: { accountId } }),
  ]);
  if (!credential || credential.state !== 'active' || !canTestZendeskWebhook(credential.scope))
    return {
      outcome: 'needs_permission',
      message:
        'Zendesk lets only a token with webhook permission test its webhook, and incident-desk keeps a narrower one after setup; setup tests it at its end.',
    };
  return testZendeskWebhook({
    zendesk: await deps.accounts.zendeskFor(accountId),
    connectorUrl: deps.connectorUrl,
    accountId,
    webhookId: configuration?.zendeskWebhookId ?? null,
    now,
  });
}

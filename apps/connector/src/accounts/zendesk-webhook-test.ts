// Zendesk's side of "Send a test delivery": the connector asks Zendesk to test its own webhook
// (POST /api/v2/webhooks/test), so Zendesk sends `{"kind":"test"}` to the account's receiver signed
// with the webhook's secret like a real delivery, and the receiver records "last from Zendesk"
// (http/ticketing-test-delivery.ts). Testing a webhook needs `webhooks:write` (or `write`), which
// setup's token holds and the steady-state token does not: setup sends one at its end, and the
// admin page offers it only while the stored token can.
import type { ZendeskClient } from '@incident-desk/zendesk-api';
import { scopeSet } from './scopes';
import { ticketingWebhookUrl } from '../setup';

export type ZendeskWebhookTest =
  | { outcome: 'delivered' }
  | { outcome: 'needs_permission' | 'no_webhook' | 'failed'; message: string }
  /** `status`: what the connector's receiver answered Zendesk (0 for nothing). */
  | { outcome: 'refused'; status: number; message: string };

/** Whether a token of this scope may ask Zendesk to test a webhook. */
export function canTestZendeskWebhook(scope: string | readonly string[]): boolean {
  const granted = typeof scope === 'string' ? scopeSet(scope) : new Set(scope);
  return granted.has('write') || granted.has('webhooks:write');
}

export async function testZendeskWebhook(input: {
  zendesk: ZendeskClient;
  connectorUrl: string;
  accountId: string;
  webhookId: string | null;
  now: Date;
}): Promise<ZendeskWebhookTest> {
  if (!input.webhookId)
    return {
      outcome: 'no_webhook',
      message: 'The Zendesk webhook does not exist yet: run setup first.',
    };
  try {
    const answer = await input.zendesk.webhooks.test(
      input.webhookId,
      {
        endpoint: ticketingWebhookUrl(input.connectorUrl, input.accountId),
        http_method: 'POST',
        request_format: 'json',
        payload: JSON.stringify({ kind: 'test', sentAt: input.now.toISOString() }),
      },
      { timeoutMs: 15_000 },
    );
    if (answer.status >= 200 && answer.status < 300) return { outcome: 'delivered' };
    return {
      outcome: 'refused',
      status: answer.status,
      message: `Zendesk sent the test, and the connector answered ${answer.status || 'nothing'}: check that Zendesk can reach the connector's public address.`,
    };
  } catch {
    return {
      outcome: 'failed',
      message: 'Zendesk did not run the webhook test; try again in a moment.',
    };
  }
}

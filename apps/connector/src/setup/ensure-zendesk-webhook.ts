// The Zendesk webhook the triggers notify: found by stored id (when it still points at this
// account's receiver), else by endpoint among all webhooks, else created; its signing secret is
// read every run, so a lost secret is recovered without resetting it.
import {
  ZendeskRecordNotFoundError,
  type TWebhook,
  type ZendeskClient,
} from '@incident-desk/zendesk-api';
import type { ListZendeskWebhooks } from './list-zendesk-webhooks';
import type { StepReport, ZendeskWebhookSetup } from './setup-result';

export interface EnsureZendeskWebhookInput {
  zendesk: ZendeskClient;
  listWebhooks?: ListZendeskWebhooks | undefined;
  accountId: string;
  /** The account's receiver: `<connector>/ticketing/webhook?account=<accountId>`. */
  endpoint: string;
  storedId?: string | undefined;
}

export interface EnsureZendeskWebhookResult {
  webhook: ZendeskWebhookSetup;
  step: StepReport;
}

export function zendeskWebhookName(accountId: string): string {
  return `incident-desk connector (${accountId})`;
}

async function showIfExists(zendesk: ZendeskClient, id: string): Promise<TWebhook | null> {
  try {
    return await zendesk.webhooks.show(id);
  } catch (error) {
    if (error instanceof ZendeskRecordNotFoundError) return null;
    throw error;
  }
}

/** Throws on failure; the caller reports it. */
export async function ensureZendeskWebhook(
  input: EnsureZendeskWebhookInput,
): Promise<EnsureZendeskWebhookResult> {
  const { zendesk, endpoint } = input;
  const name = zendeskWebhookName(input.accountId);
  const target = name;

  let webhook: TWebhook | null = null;
  const notes: string[] = [];
  if (input.storedId) {
    const stored = await showIfExists(zendesk, input.storedId);
    if (stored?.endpoint === endpoint) webhook = stored;
    else if (stored) notes.push('the stored webhook points elsewhere; using one for this receiver');
    else notes.push('the stored webhook no longer exists');
  }
  if (!webhook && input.listWebhooks) {
    const matching = (await input.listWebhooks()).filter(
      (candidate) => candidate.endpoint === endpoint,
    );
    webhook = matching.find((candidate) => candidate.status === 'active') ?? matching[0] ?? null;
    if (matching.length > 1) {
      // The API client cannot delete webhooks; the triggers only ever point at the one kept here.
      notes.push(
        `${matching.length - 1} other webhook(s) use this endpoint and are unused: delete them in Zendesk`,
      );
    }
  }

  let outcome: StepReport['outcome'] = 'found';
  if (!webhook) {
    webhook = await zendesk.webhooks.create({
      name,
      endpoint,
      http_method: 'POST',
      request_format: 'json',
      status: 'active',
      // Zendesk's subscription value for webhooks that triggers notify.
      subscriptions: ['conditional_ticket_events'],
      description:
        'Ticket reports, comments and action requests for the incident service (identifiers only).',
    });
    outcome = 'created';
  } else if (webhook.status !== 'active') {
    notes.push(
      `the webhook is ${webhook.status}: activate it in Zendesk (Admin Center > Webhooks)`,
    );
  }
  const secret = await zendesk.webhooks.signingSecret.show(webhook.id);
  return {
    webhook: { id: webhook.id, secret: secret.secret },
    step: {
      step: 'zendesk_webhook',
      target,
      outcome,
      ...(notes.length > 0 ? { message: notes.join('; ') } : {}),
    },
  };
}

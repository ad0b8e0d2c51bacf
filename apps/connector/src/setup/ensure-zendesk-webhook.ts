// The Zendesk webhook the triggers notify: found by stored id (when it still points at this
// account's receiver), else by endpoint among all webhooks (extra copies deleted), else created;
// reactivated when inactive; its signing secret is read every run, so a lost secret is recovered
// without resetting it.
import {
  ZendeskRecordNotFoundError,
  type TWebhook,
  type ZendeskClient,
} from '@incident-desk/zendesk-api';
import type { StepReport, ZendeskWebhookSetup } from './setup-result';

export interface EnsureZendeskWebhookInput {
  zendesk: ZendeskClient;
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
  if (!webhook) {
    const matching: TWebhook[] = [];
    for await (const candidate of zendesk.webhooks.list()) {
      if (candidate.endpoint === endpoint) matching.push(candidate);
    }
    webhook = matching.find((candidate) => candidate.status === 'active') ?? matching[0] ?? null;
    const extras = matching.filter((candidate) => candidate !== webhook);
    for (const extra of extras) await zendesk.webhooks.delete(extra.id);
    if (extras.length > 0)
      notes.push(`deleted ${extras.length} duplicate webhook(s) on this endpoint`);
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
    await zendesk.webhooks.update(webhook.id, { status: 'active' });
    notes.push(`the webhook was ${webhook.status}; activated it`);
    outcome = 'updated';
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

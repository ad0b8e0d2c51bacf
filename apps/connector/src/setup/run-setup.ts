// Setup of one account, idempotent and rerunnable: every step looks before it creates, a failing
// step is reported and the others still run, and nothing is persisted here: the result says what
// the accounts side must store (secrets to be sealed, ids for the account's configuration).
import type { IncidentClient } from '@incident-desk/incident-api';
import type { ZendeskClient } from '@incident-desk/zendesk-api';
import { ticketingWebhookUrl } from './connector-urls';
import { ensureIncidentSubscriptions } from './ensure-incident-subscriptions';
import { ensureQueueViews } from './ensure-queue-views';
import { ensureTicketFields } from './ensure-ticket-fields';
import { ensureTriggers, type EnsureTriggersResult } from './ensure-triggers';
import { ensureZendeskWebhook, zendeskWebhookName } from './ensure-zendesk-webhook';
import { requestTestDeliveries } from './request-test-deliveries';
import type { SetupExisting, SetupResult, StepReport, ZendeskWebhookSetup } from './setup-result';
import { stepErrorMessage } from './step-error';
import { buildTriggerDefinitions } from './trigger-definitions';

export interface SetupInput {
  accountId: string;
  /** Public base URL of the connector, as Zendesk and the incident service reach it. */
  connectorUrl: string;
  /** Acting with setup scopes (read write, or an administrator). */
  zendesk: ZendeskClient;
  /** The incident service under the account's key (the parent client). */
  incidents: IncidentClient;
  /** The client and every sub-client to subscribe. */
  incidentClientIds: string[];
  forwardInternalNotes: boolean;
  /** Create the two shared queue views (default on); off removes the ones setup made. */
  createQueueViews?: boolean | undefined;
  existing?: SetupExisting | undefined;
  now?: () => Date;
  newSubscriptionId?: () => string;
}

/** The triggers notifying the webhook; skipped (ids kept) when there is no webhook. */
async function setUpTriggers(
  input: SetupInput,
  zendeskWebhook: ZendeskWebhookSetup | null,
  storedIds: number[],
): Promise<EnsureTriggersResult> {
  if (!zendeskWebhook) {
    return {
      triggers: [],
      triggerIds: null,
      steps: [
        {
          step: 'trigger',
          target: 'all triggers',
          outcome: 'skipped',
          message: 'the Zendesk webhook is missing',
        },
      ],
    };
  }
  const definitions = buildTriggerDefinitions({
    webhookId: zendeskWebhook.id,
    forwardInternalNotes: input.forwardInternalNotes,
  });
  return ensureTriggers(input.zendesk, definitions, storedIds);
}

export async function runSetup(input: SetupInput): Promise<SetupResult> {
  const existing = input.existing ?? {};
  const steps: StepReport[] = [];

  const fieldsStep = await ensureTicketFields(input.zendesk, existing.fields);
  steps.push(...fieldsStep.steps);

  let zendeskWebhook: ZendeskWebhookSetup | null = null;
  try {
    const ensured = await ensureZendeskWebhook({
      zendesk: input.zendesk,
      accountId: input.accountId,
      endpoint: ticketingWebhookUrl(input.connectorUrl, input.accountId),
      storedId: existing.zendeskWebhookId,
    });
    zendeskWebhook = ensured.webhook;
    steps.push(ensured.step);
  } catch (error) {
    steps.push({
      step: 'zendesk_webhook',
      target: zendeskWebhookName(input.accountId),
      outcome: 'failed',
      message: stepErrorMessage(error),
    });
  }

  const { triggers, triggerIds, ...triggersStep } = await setUpTriggers(
    input,
    zendeskWebhook,
    existing.triggerIds ?? [],
  );
  steps.push(...triggersStep.steps);

  const viewsStep = await ensureQueueViews({
    zendesk: input.zendesk,
    statusFieldId: fieldsStep.fields.status,
    enabled: input.createQueueViews ?? true,
    storedIds: existing.viewIds ?? [],
  });
  steps.push(...viewsStep.steps);

  const subscriptionsStep = await ensureIncidentSubscriptions({
    incidents: input.incidents,
    accountId: input.accountId,
    connectorUrl: input.connectorUrl,
    clientIds: input.incidentClientIds,
    stored: existing.incidentSubscriptions,
    ...(input.newSubscriptionId ? { newSubscriptionId: input.newSubscriptionId } : {}),
  });
  steps.push(...subscriptionsStep.steps);

  // what notes are written in; best effort, a failed read keeps the language stored before
  const zendeskLocale = await input.zendesk.locales.accountDefault().catch(() => undefined);

  const tests = await requestTestDeliveries(input.incidents, subscriptionsStep.subscriptions);
  steps.push(...tests.steps);
  const requested = new Set(tests.outcomes.filter((o) => o.requested).map((o) => o.webhookId));

  return {
    ok: steps.every((step) => step.outcome !== 'failed'),
    fields: fieldsStep.fields,
    zendeskWebhook,
    triggers,
    triggerIds,
    views: viewsStep.viewIds,
    incidentSubscriptions: subscriptionsStep.subscriptions.map((subscription) => ({
      ...subscription,
      testDelivery: requested.has(subscription.webhookId) ? 'requested' : 'failed',
    })),
    zendeskLocale,
    steps,
    finishedAt: (input.now?.() ?? new Date()).toISOString(),
  };
}

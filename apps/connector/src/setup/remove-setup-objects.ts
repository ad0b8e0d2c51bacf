// What setup created in the account's Zendesk, removed: the queue views (by stored id, and those
// of setup's titles carrying its mark), the triggers (by stored id, and those of setup's title
// prefix carrying its mark), the connector's webhook (by stored id and by its receiver address,
// which names this installation's account) and, unless tickets use them or the admin asks for it,
// the three ticket fields (by stored id). An admin's view, trigger or field that only looks like
// setup's (same title, no mark) is never removed. Views go before the fields they read and
// triggers before the webhook they notify. One line per thing; a failure is reported and the
// rest still goes. Setup owns what it made, so its removal is here; a disconnect (disconnect/)
// decides when, with which client, and what else goes with it.
import type { DisconnectStep } from '@incident-desk/admin-contract';
import type { TDatabase } from '@incident-desk/db';
import { ZendeskRecordNotFoundError, type ZendeskClient } from '@incident-desk/zendesk-api';
import { ticketingWebhookUrl } from './connector-urls';
import { SETUP_TICKET_FIELDS } from './ensure-ticket-fields';
import { zendeskWebhookName } from './ensure-zendesk-webhook';
import { ACTION_NEEDED_VIEW_TITLE, APPROVALS_VIEW_TITLE, isOwnQueueView } from './queue-views';
import type { SetupFieldIds } from './setup-result';
import { stepErrorMessage } from './step-error';
import { ticketFieldUsage } from './ticket-field-usage';
import { isOwnTrigger, TRIGGER_TITLE_PREFIX } from './trigger-definitions';

export interface ZendeskSetupToRemove {
  zendesk: ZendeskClient;
  db: TDatabase;
  accountId: string;
  connectorUrl: string;
  viewIds: number[];
  triggerIds: number[];
  webhookId: string | null;
  fields: SetupFieldIds;
  /** Delete the fields even when tickets hold values in them. */
  deleteTicketFields: boolean;
}

type Item = DisconnectStep['item'];

/** Deletes one record: removed, already gone (404), or failed with Zendesk's reason. */
async function remove(
  item: Item,
  target: string,
  deletion: () => Promise<void>,
): Promise<DisconnectStep> {
  try {
    await deletion();
    return { item, target, outcome: 'removed' };
  } catch (error) {
    if (error instanceof ZendeskRecordNotFoundError)
      return { item, target, outcome: 'already_gone' };
    return { item, target, outcome: 'failed', message: stepErrorMessage(error) };
  }
}

async function listed<T>(list: AsyncIterable<T>): Promise<T[] | Error> {
  try {
    const all: T[] = [];
    for await (const item of list) all.push(item);
    return all;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

async function removeViews(input: ZendeskSetupToRemove): Promise<DisconnectStep[]> {
  const { zendesk } = input;
  const steps: DisconnectStep[] = [];
  const views = await listed(zendesk.views.list());
  const titles = new Map<number, string>();
  if (views instanceof Error) {
    steps.push({
      item: 'view',
      target: 'views by title',
      outcome: 'failed',
      message: `could not list views: ${stepErrorMessage(views)}`,
    });
  } else {
    for (const view of views) {
      // an admin's view of the same title is not setup's: only stored or marked ones go
      if (
        isOwnQueueView(view, input.viewIds) &&
        (input.viewIds.includes(view.id) ||
          [APPROVALS_VIEW_TITLE, ACTION_NEEDED_VIEW_TITLE].includes(view.title))
      )
        titles.set(view.id, view.title);
    }
  }
  const ids = [...new Set([...input.viewIds, ...titles.keys()])];
  for (const id of ids)
    steps.push(
      await remove('view', titles.get(id) ?? `view ${id}`, () => zendesk.views.delete(id)),
    );
  return steps;
}

async function removeTriggers(input: ZendeskSetupToRemove): Promise<DisconnectStep[]> {
  const { zendesk } = input;
  const steps: DisconnectStep[] = [];
  const triggers = await listed(zendesk.triggers.list());
  const titles = new Map<number, string>();
  if (triggers instanceof Error) {
    steps.push({
      item: 'trigger',
      target: `triggers titled "${TRIGGER_TITLE_PREFIX.trim()} …"`,
      outcome: 'failed',
      message: `could not list triggers: ${stepErrorMessage(triggers)}`,
    });
  } else {
    for (const trigger of triggers) {
      // an admin's trigger of setup's title is not setup's: only stored or marked ones go
      if (
        isOwnTrigger(trigger, input.triggerIds) &&
        (input.triggerIds.includes(trigger.id) || trigger.title.startsWith(TRIGGER_TITLE_PREFIX))
      )
        titles.set(trigger.id, trigger.title);
    }
  }
  const ids = [...new Set([...input.triggerIds, ...titles.keys()])];
  for (const id of ids)
    steps.push(
      await remove('trigger', titles.get(id) ?? `trigger ${id}`, () => zendesk.triggers.delete(id)),
    );
  return steps;
}

async function removeWebhook(input: ZendeskSetupToRemove): Promise<DisconnectStep[]> {
  const { zendesk } = input;
  const endpoint = ticketingWebhookUrl(input.connectorUrl, input.accountId);
  const target = zendeskWebhookName(input.accountId);
  const steps: DisconnectStep[] = [];
  const ids = new Set(input.webhookId ? [input.webhookId] : []);
  const webhooks = await listed(zendesk.webhooks.list());
  if (webhooks instanceof Error)
    steps.push({
      item: 'zendesk_webhook',
      target: endpoint,
      outcome: 'failed',
      message: `could not list webhooks: ${stepErrorMessage(webhooks)}`,
    });
  else for (const webhook of webhooks) if (webhook.endpoint === endpoint) ids.add(webhook.id);
  for (const id of ids)
    steps.push(await remove('zendesk_webhook', target, () => zendesk.webhooks.delete(id)));
  return steps;
}

async function removeFields(input: ZendeskSetupToRemove): Promise<DisconnectStep[]> {
  const steps: DisconnectStep[] = [];
  for (const { key, title } of SETUP_TICKET_FIELDS) {
    const id = input.fields[key];
    if (id === null) continue;
    if (!input.deleteTicketFields) {
      const usage = await ticketFieldUsage(input.zendesk, input.db, input.accountId, id);
      if (usage.inUse) {
        steps.push({
          item: 'ticket_field',
          target: title,
          outcome: 'kept',
          ...(usage.why ? { message: usage.why } : {}),
        });
        continue;
      }
    }
    steps.push(await remove('ticket_field', title, () => input.zendesk.ticketFields.delete(id)));
  }
  return steps;
}

export async function removeZendeskSetup(input: ZendeskSetupToRemove): Promise<DisconnectStep[]> {
  return [
    ...(await removeViews(input)),
    ...(await removeTriggers(input)),
    ...(await removeWebhook(input)),
    ...(await removeFields(input)),
  ];
}

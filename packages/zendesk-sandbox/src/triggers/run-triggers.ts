import type { TriggerAction, TriggerRecord } from '../state/model';
import { normaliseTags } from '../state/tags';
import type { TicketChange } from '../state/ticket-change';
import { setCustomField, TICKET_STATUSES } from '../state/ticket-fields';
import { conditionHolds } from './conditions';

export interface PendingNotification {
  triggerId: number;
  webhookId: string;
  template: string;
}

function matches(trigger: TriggerRecord, change: TicketChange): boolean {
  const { all, any } = trigger.conditions;
  return (
    all.every((c) => conditionHolds(c, change)) &&
    (any.length === 0 || any.some((c) => conditionHolds(c, change)))
  );
}

function applyAction(
  action: TriggerAction,
  change: TicketChange,
  notifications: PendingNotification[],
  triggerId: number,
): void {
  const { ticket, account } = change;
  const field = action.field;
  if (field === 'notification_webhook') {
    const [webhookId, template] = Array.isArray(action.value) ? action.value : [];
    notifications.push({
      triggerId,
      webhookId: String(webhookId),
      template: typeof template === 'string' ? template : '',
    });
  } else if (field === 'set_tags') {
    ticket.tags = normaliseTags([String(action.value)]);
  } else if (field === 'current_tags') {
    ticket.tags = normaliseTags([...ticket.tags, String(action.value)]);
  } else if (field === 'remove_tags') {
    const removed = normaliseTags([String(action.value)]);
    ticket.tags = ticket.tags.filter((t) => !removed.includes(t));
  } else if (
    field === 'status' &&
    (TICKET_STATUSES as readonly string[]).includes(String(action.value))
  ) {
    ticket.status = String(action.value) as typeof ticket.status;
  } else if (field === 'group_id') {
    ticket.group_id = action.value === '' || action.value === null ? null : Number(action.value);
  } else if (field === 'assignee_id') {
    ticket.assignee_id = action.value === '' || action.value === null ? null : Number(action.value);
  } else {
    const custom = /^custom_fields_(\d+)$/.exec(field);
    if (custom) setCustomField(account, ticket, { id: Number(custom[1]), value: action.value });
  }
}

function fingerprint(change: TicketChange): string {
  const { ticket } = change;
  return JSON.stringify([
    ticket.tags,
    ticket.status,
    ticket.group_id,
    ticket.assignee_id,
    ticket.custom_fields,
  ]);
}

/**
 * Zendesk's trigger cycle: walk active triggers by position; when one fires and changes the ticket, start
 * the walk again; each trigger fires at most once per update. Webhook notifications are collected and
 * rendered after the cycle, against the final ticket.
 */
export function runTriggerCycle(change: TicketChange): PendingNotification[] {
  const triggers = [...change.account.triggers.values()]
    .filter((t) => t.active)
    .sort((a, b) => a.position - b.position || a.id - b.id);
  const fired = new Set<number>();
  const notifications: PendingNotification[] = [];
  let restart = true;
  while (restart) {
    restart = false;
    for (const trigger of triggers) {
      if (fired.has(trigger.id) || !matches(trigger, change)) continue;
      fired.add(trigger.id);
      const before = fingerprint(change);
      for (const action of trigger.actions) applyAction(action, change, notifications, trigger.id);
      if (fingerprint(change) !== before) {
        restart = true;
        break;
      }
    }
  }
  return notifications;
}

import type { TApiTicket } from './support-api';

/** What the host compares between two reads of a ticket to raise ZAF change events. */
export interface TicketSnapshot {
  subject: string;
  status: string;
  tags: string[];
  customFields: Record<string, unknown>;
}

export interface ZafEvent {
  name: string;
  payload: unknown;
}

export function snapshotOf(ticket: TApiTicket): TicketSnapshot {
  return {
    subject: ticket.subject ?? '',
    status: ticket.status ?? '',
    tags: [...ticket.tags],
    customFields: Object.fromEntries(
      ticket.custom_fields.map((f) => [String(f.id), f.value ?? null]),
    ),
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The ZAF events a change raises. Handlers receive the new value (the payload shape is unconfirmed).
 * Tags compare as a set: Zendesk does not promise an order.
 */
export function ticketChangeEvents(before: TicketSnapshot, after: TicketSnapshot): ZafEvent[] {
  const events: ZafEvent[] = [];
  if (before.subject !== after.subject)
    events.push({ name: 'ticket.subject.changed', payload: after.subject });
  if (before.status !== after.status)
    events.push({ name: 'ticket.status.changed', payload: after.status });
  if (!same([...before.tags].sort(), [...after.tags].sort())) {
    events.push({ name: 'ticket.tags.changed', payload: after.tags });
  }
  const ids = new Set([...Object.keys(before.customFields), ...Object.keys(after.customFields)]);
  for (const id of ids) {
    if (!same(before.customFields[id] ?? null, after.customFields[id] ?? null)) {
      events.push({
        name: `ticket.custom_field_${id}.changed`,
        payload: after.customFields[id] ?? null,
      });
    }
  }
  return events;
}

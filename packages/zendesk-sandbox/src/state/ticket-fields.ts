// A ticket's fields as a request sets them, refused as Zendesk refuses them (an unknown status, an
// end user as assignee, an unknown group, a drop-down value without its option).
import type { AccountRecord, CustomFieldValue, TicketRecord } from './model';
import { recordInvalid } from './sandbox-state';
import { normaliseTags } from './tags';
import type { TicketChange } from './ticket-change';
import type { TTicketInput } from './ticket-input';

export const TICKET_STATUSES = ['new', 'open', 'pending', 'hold', 'solved', 'closed'] as const;

function isStatus(value: string): value is TicketRecord['status'] {
  return (TICKET_STATUSES as readonly string[]).includes(value);
}

/** The fields the request sets: status, priority, type, assignee and group, tags, custom fields. */
export function applyFields(change: TicketChange, input: TTicketInput): void {
  const { account, ticket } = change;
  if (input.status !== undefined) {
    if (!isStatus(input.status)) {
      throw recordInvalid({
        status: [{ description: `Status: ${input.status} is not valid`, error: 'InvalidValue' }],
      });
    }
    ticket.status = input.status;
  }
  if (input.priority !== undefined) ticket.priority = input.priority;
  if (input.type !== undefined) ticket.type = input.type;
  if (input.external_id !== undefined) ticket.external_id = input.external_id;
  let assigneeId = input.assignee_id;
  if (input.assignee_email !== undefined) {
    const found = [...account.users.values()].find(
      (u) => u.email === input.assignee_email?.toLowerCase(),
    );
    assigneeId = found ? found.id : -1;
  }
  if (assigneeId !== undefined) {
    if (assigneeId !== null) {
      const assignee = account.users.get(assigneeId);
      if (!assignee || assignee.role === 'end-user') {
        throw recordInvalid({
          assignee: [{ description: 'Assignee: is invalid', error: 'InvalidValue' }],
        });
      }
      if (ticket.group_id === null && input.group_id === undefined)
        ticket.group_id = [...account.groups.keys()][0] ?? null;
    }
    ticket.assignee_id = assigneeId;
  }
  if (input.group_id !== undefined) {
    if (input.group_id !== null && !account.groups.has(input.group_id)) {
      throw recordInvalid({
        group: [{ description: 'Group: is invalid', error: 'InvalidValue' }],
      });
    }
    ticket.group_id = input.group_id;
  }
  if (input.tags !== undefined) ticket.tags = normaliseTags(input.tags);
  if (input.additional_tags !== undefined)
    ticket.tags = normaliseTags([...ticket.tags, ...input.additional_tags]);
  if (input.remove_tags !== undefined) {
    const removed = normaliseTags(input.remove_tags);
    ticket.tags = ticket.tags.filter((t) => !removed.includes(t));
  }
  for (const field of [...(input.custom_fields ?? []), ...(input.fields ?? [])]) {
    setCustomField(account, ticket, field);
  }
}

/** Sets one custom field; unknown field ids are ignored as Zendesk does. Drop-down values also become tags. */
export function setCustomField(
  account: AccountRecord,
  ticket: TicketRecord,
  field: CustomFieldValue,
): void {
  const definition = account.ticketFields.get(field.id);
  if (!definition) return;
  let value: unknown = field.value;
  if (definition.type === 'checkbox') value = value === true || value === 'true';
  else if (
    value !== null &&
    value !== undefined &&
    typeof value !== 'string' &&
    definition.type !== 'multiselect'
  )
    value = String(value);
  if (value === '' || value === undefined) value = null;
  if (definition.type === 'tagger') {
    const before = ticket.custom_fields.find((f) => f.id === field.id)?.value;
    if (typeof before === 'string') ticket.tags = ticket.tags.filter((t) => t !== before);
    if (typeof value === 'string') {
      if (!definition.custom_field_options.some((o) => o.value === value)) {
        throw recordInvalid({
          [`custom_field_${field.id}`]: [
            {
              description: `${definition.title}: ${value} is not a valid option`,
              error: 'InvalidValue',
            },
          ],
        });
      }
      ticket.tags = normaliseTags([...ticket.tags, value]);
    }
  }
  const existing = ticket.custom_fields.find((f) => f.id === field.id);
  if (existing) existing.value = value;
  else ticket.custom_fields.push({ id: field.id, value });
}

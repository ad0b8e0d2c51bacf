// A view's conditions hold of a ticket as it is (a trigger's hold of a change): Zendesk's
// conditions reference for views, the subset the sandbox evaluates. A ticket is in the view when
// every `all` condition holds and, if there are `any` conditions, at least one of them does.
import type { AccountRecord, TicketRecord, TriggerCondition } from '../state/model';

/** Zendesk's order of ticket statuses, which `less_than` and `greater_than` compare by. */
const STATUS_ORDER = ['new', 'open', 'pending', 'hold', 'solved', 'closed'] as const;

/** The fields of which Create View needs at least one `all` condition (Zendesk's note). */
export const REQUIRED_ALL_FIELDS = ['status', 'type', 'group_id', 'assignee_id', 'requester_id'];

const EQUALITY = ['is', 'is_not'];
const PRESENCE = ['is', 'is_not', 'present', 'not_present'];

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

function equality(operator: string, current: unknown, value: unknown): boolean {
  if (operator === 'present') return text(current) !== '';
  if (operator === 'not_present') return text(current) === '';
  const same = text(current) === text(value);
  return operator === 'is' ? same : !same;
}

function statusRank(status: unknown): number {
  return STATUS_ORDER.indexOf(String(status) as (typeof STATUS_ORDER)[number]);
}

type Evaluate = (condition: TriggerCondition, ticket: TicketRecord) => boolean;

const attribute =
  (name: 'assignee_id' | 'group_id' | 'requester_id' | 'priority' | 'type'): Evaluate =>
  (condition, ticket) =>
    equality(condition.operator, ticket[name], condition.value);

const FIELDS: Record<string, { operators: string[]; evaluate: Evaluate }> = {
  status: {
    operators: ['is', 'is_not', 'less_than', 'greater_than'],
    evaluate: (condition, ticket) => {
      if (condition.operator === 'less_than')
        return statusRank(ticket.status) < statusRank(condition.value);
      if (condition.operator === 'greater_than')
        return statusRank(ticket.status) > statusRank(condition.value);
      return equality(condition.operator, ticket.status, condition.value);
    },
  },
  type: { operators: PRESENCE, evaluate: attribute('type') },
  priority: { operators: PRESENCE, evaluate: attribute('priority') },
  group_id: { operators: PRESENCE, evaluate: attribute('group_id') },
  assignee_id: { operators: PRESENCE, evaluate: attribute('assignee_id') },
  requester_id: { operators: EQUALITY, evaluate: attribute('requester_id') },
  current_tags: {
    operators: ['includes', 'not_includes'],
    evaluate: (condition, ticket) => {
      const wanted = text(condition.value).toLowerCase().split(/\s+/).filter(Boolean);
      const anyPresent = wanted.some((tag) => ticket.tags.includes(tag));
      return condition.operator === 'includes' ? anyPresent : !anyPresent;
    },
  },
};

function customFieldId(condition: TriggerCondition): number | null {
  const match = /^custom_fields_(\d+)$/.exec(condition.field);
  return match ? Number(match[1]) : null;
}

/** Why the sandbox cannot take a condition (as Zendesk's 422 would say), or null when it can. */
export function viewConditionProblem(
  account: AccountRecord,
  condition: TriggerCondition,
): string | null {
  const fieldId = customFieldId(condition);
  if (fieldId !== null) {
    const field = account.ticketFields.get(fieldId);
    if (!field) return `${condition.field} is not a ticket field of this account`;
    if (!PRESENCE.includes(condition.operator))
      return `operator ${condition.operator} is not valid for ${condition.field}`;
    if (
      field.type === 'tagger' &&
      (condition.operator === 'is' || condition.operator === 'is_not') &&
      !field.custom_field_options.some((option) => option.value === text(condition.value))
    )
      return `${text(condition.value)} is not an option of ${field.title}`;
    return null;
  }
  const known = FIELDS[condition.field];
  if (!known) return `condition field ${condition.field} is not supported by the sandbox`;
  if (!known.operators.includes(condition.operator))
    return `operator ${condition.operator} is not valid for ${condition.field}`;
  if (condition.field === 'status' && statusRank(condition.value) < 0)
    return `${text(condition.value)} is not a ticket status`;
  return null;
}

function holds(condition: TriggerCondition, ticket: TicketRecord): boolean {
  const fieldId = customFieldId(condition);
  if (fieldId !== null) {
    const current = ticket.custom_fields.find((field) => field.id === fieldId)?.value ?? null;
    return equality(condition.operator, current, condition.value);
  }
  return FIELDS[condition.field]?.evaluate(condition, ticket) ?? false;
}

export function ticketInView(
  conditions: { all: TriggerCondition[]; any: TriggerCondition[] },
  ticket: TicketRecord,
): boolean {
  return (
    conditions.all.every((condition) => holds(condition, ticket)) &&
    (conditions.any.length === 0 || conditions.any.some((condition) => holds(condition, ticket)))
  );
}

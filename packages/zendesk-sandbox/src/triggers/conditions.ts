import type { TriggerCondition } from '../state/model';
import type { TicketChange } from '../state/ticket-change';

type Evaluate = (condition: TriggerCondition, change: TicketChange) => boolean;

function words(value: unknown): string[] {
  return String(value ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
}

function compare(
  operator: string,
  current: unknown,
  previous: unknown,
  value: unknown,
  isCreate: boolean,
): boolean {
  const asText = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  switch (operator) {
    case 'is':
      return asText(current) === asText(value);
    case 'is_not':
      return asText(current) !== asText(value);
    case 'present':
      return asText(current) !== '';
    case 'not_present':
      return asText(current) === '';
    case 'changed':
      return !isCreate && asText(current) !== asText(previous);
    case 'not_changed':
      return isCreate || asText(current) === asText(previous);
    case 'value':
      return !isCreate && asText(current) !== asText(previous) && asText(current) === asText(value);
    case 'value_previous':
      return (
        !isCreate && asText(current) !== asText(previous) && asText(previous) === asText(value)
      );
    case 'not_value':
      return isCreate || asText(current) === asText(previous) || asText(current) !== asText(value);
    case 'not_value_previous':
      return isCreate || asText(current) === asText(previous) || asText(previous) !== asText(value);
    default:
      return false;
  }
}

const TICKET_FIELD_OPERATORS = [
  'is',
  'is_not',
  'present',
  'not_present',
  'changed',
  'not_changed',
  'value',
  'value_previous',
  'not_value',
  'not_value_previous',
];

const ticketAttribute =
  (name: 'status' | 'assignee_id' | 'group_id' | 'requester_id' | 'priority' | 'type'): Evaluate =>
  (condition, change) =>
    compare(
      condition.operator,
      change.ticket[name],
      change.previous?.[name],
      condition.value,
      change.kind === 'create',
    );

const EVALUATORS: Record<string, { operators: string[]; evaluate: Evaluate }> = {
  update_type: {
    operators: ['is'],
    evaluate: (condition, change) =>
      String(condition.value).toLowerCase() === (change.kind === 'create' ? 'create' : 'change'),
  },
  current_tags: {
    operators: ['includes', 'not_includes'],
    evaluate: (condition, change) => {
      const anyPresent = words(condition.value).some((tag) => change.ticket.tags.includes(tag));
      return condition.operator === 'includes' ? anyPresent : !anyPresent;
    },
  },
  comment_is_public: {
    operators: ['is'],
    evaluate: (condition, change) => {
      // Zendesk's values: true (public), false (private), not_relevant (present, public or private).
      const value = String(condition.value);
      if (!change.comment) return false;
      if (value === 'not_relevant') return true;
      if (value === 'true' || value === 'requester_can_see_comment') return change.comment.public;
      if (value === 'false') return !change.comment.public;
      return false;
    },
  },
  comment_includes_word: {
    operators: ['includes', 'not_includes', 'is', 'is_not'],
    evaluate: (condition, change) => {
      const body = (change.comment?.body ?? '').toLowerCase();
      const hit =
        condition.operator === 'is' || condition.operator === 'is_not'
          ? body.includes(String(condition.value).toLowerCase())
          : words(condition.value).some((w) => body.split(/\W+/).includes(w));
      return condition.operator === 'includes' || condition.operator === 'is'
        ? change.comment !== null && hit
        : !hit;
    },
  },
  status: { operators: TICKET_FIELD_OPERATORS, evaluate: ticketAttribute('status') },
  assignee_id: { operators: TICKET_FIELD_OPERATORS, evaluate: ticketAttribute('assignee_id') },
  group_id: { operators: TICKET_FIELD_OPERATORS, evaluate: ticketAttribute('group_id') },
  requester_id: { operators: TICKET_FIELD_OPERATORS, evaluate: ticketAttribute('requester_id') },
  priority: { operators: TICKET_FIELD_OPERATORS, evaluate: ticketAttribute('priority') },
  ticket_type_id: { operators: TICKET_FIELD_OPERATORS, evaluate: ticketAttribute('type') },
  role: {
    operators: ['is', 'is_not'],
    evaluate: (condition, change) => {
      const role = change.actor.role === 'end-user' ? 'end_user' : 'agent';
      return (String(condition.value) === role) === (condition.operator === 'is');
    },
  },
  via_id: {
    operators: ['is', 'is_not'],
    // Zendesk's via ids: 0 web form, 4 mail, 5 API.
    evaluate: (condition, change) => {
      const via = change.channel === 'api' ? '5' : change.channel === 'email' ? '4' : '0';
      return (String(condition.value) === via) === (condition.operator === 'is');
    },
  },
};

function customField(condition: TriggerCondition): number | null {
  const match = /^custom_fields_(\d+)$/.exec(condition.field);
  return match ? Number(match[1]) : null;
}

/** The reason a condition cannot be evaluated, or null when the sandbox supports it. */
export function unsupportedCondition(condition: TriggerCondition): string | null {
  if (customField(condition) !== null) {
    return TICKET_FIELD_OPERATORS.includes(condition.operator)
      ? null
      : `operator ${condition.operator} is not supported`;
  }
  const evaluator = EVALUATORS[condition.field];
  if (!evaluator) return `condition field ${condition.field} is not supported by the sandbox`;
  return evaluator.operators.includes(condition.operator)
    ? null
    : `operator ${condition.operator} is not supported for ${condition.field}`;
}

export function conditionHolds(condition: TriggerCondition, change: TicketChange): boolean {
  const fieldId = customField(condition);
  if (fieldId !== null) {
    const current = change.ticket.custom_fields.find((f) => f.id === fieldId)?.value ?? null;
    const previous = change.previous?.custom_fields.find((f) => f.id === fieldId)?.value ?? null;
    return compare(
      condition.operator,
      current,
      previous,
      condition.value,
      change.kind === 'create',
    );
  }
  return EVALUATORS[condition.field]?.evaluate(condition, change) ?? false;
}

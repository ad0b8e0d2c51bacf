// What a ticket change's audit holds: the request's metadata (within Zendesk's size) and one
// Change event per field the update changed.
import { recordInvalid, type SandboxState } from './sandbox-state';
import type { TicketChange } from './ticket-change';
import type { TTicketInput } from './ticket-input';

/** Zendesk: "you can add up to 1 kilobyte of custom metadata" to an audit (what it does beyond is not documented). */
const MAX_AUDIT_METADATA_BYTES = 1024;

/** The request's metadata, refused over Zendesk's documented size. */
export function auditMetadata(input: TTicketInput): Record<string, unknown> {
  const metadata = input.metadata ?? {};
  if (Buffer.byteLength(JSON.stringify(metadata)) > MAX_AUDIT_METADATA_BYTES) {
    throw recordInvalid({
      metadata: [
        {
          description: `Metadata: is too large (at most ${MAX_AUDIT_METADATA_BYTES} bytes)`,
          error: 'InvalidValue',
        },
      ],
    });
  }
  return metadata;
}

/** One Change event per field the update changed (a create has none). */
export function recordDiffEvents(state: SandboxState, change: TicketChange): void {
  const { previous, ticket } = change;
  if (!previous) return;
  for (const field of [
    'subject',
    'status',
    'assignee_id',
    'group_id',
    'priority',
    'type',
    'requester_id',
  ] as const) {
    if (previous[field] !== ticket[field]) {
      change.events.push({
        id: state.id(),
        type: 'Change',
        field_name: field,
        value: ticket[field],
        previous_value: previous[field],
      });
    }
  }
  if (previous.tags.join(' ') !== ticket.tags.join(' ')) {
    change.events.push({
      id: state.id(),
      type: 'Change',
      field_name: 'tags',
      value: ticket.tags,
      previous_value: previous.tags,
    });
  }
  for (const field of ticket.custom_fields) {
    const before = previous.custom_fields.find((f) => f.id === field.id)?.value ?? null;
    if (before !== field.value) {
      change.events.push({
        id: state.id(),
        type: 'Change',
        field_name: String(field.id),
        value: field.value,
        previous_value: before,
      });
    }
  }
}

// The contract's triggers (ticketing-connector.md, Triggers), as Zendesk trigger definitions whose
// webhook bodies carry identifiers only; the connector reads everything else through the API.
//
// Reporting for monitoring: the contract's report body has `mode` (takedown or monitor) but its
// table names only the tag incident_submit. A body cannot choose the mode from data, so a second
// trigger on incident_submit_monitor sends mode monitor. The takedown trigger leaves a ticket
// carrying both tags to the monitor trigger, so one ticket never produces two reports.
import type { TTriggerCreateInput } from '@incident-desk/zendesk-api';
import { ACTION_REQUEST_TAGS, TAG_LINKED, TAG_SUBMIT, TAG_UNLINKED } from './ticket-tags';

export const TAG_SUBMIT_MONITOR = 'incident_submit_monitor';

/** Every title starts with this; it names the trigger for the admin, it is not its identity. */
export const TRIGGER_TITLE_PREFIX = 'incident-desk: ';

/**
 * Every trigger setup makes says so in its description (since its first version): how setup knows
 * its own triggers when their stored ids were lost. An admin's trigger of the same title lacks it.
 */
const TRIGGER_MARK = 'Managed by incident-desk setup';

/** Whether setup made the trigger: its id is stored, or it carries setup's mark. Never by title. */
export function isOwnTrigger(
  trigger: { id: number; description?: string | null | undefined },
  storedIds: readonly number[],
): boolean {
  return storedIds.includes(trigger.id) || (trigger.description ?? '').includes(TRIGGER_MARK);
}

export interface TriggerDefinitionOptions {
  webhookId: string;
  /** Forward internal notes as well as public replies (account setting, off by default). */
  forwardInternalNotes: boolean;
}

type TCondition = NonNullable<TTriggerCreateInput['conditions']['all']>[number];

const tagPresent = (tag: string): TCondition => ({
  field: 'current_tags',
  operator: 'includes',
  value: tag,
});
const tagsAbsent = (...tags: string[]): TCondition => ({
  field: 'current_tags',
  operator: 'not_includes',
  value: tags.join(' '),
});

// Quoted {{ticket.id}} keeps the body valid JSON even if the placeholder rendered empty; the
// receiver accepts the id as a number or a numeric string.
function body(fields: Record<string, string>): string {
  return JSON.stringify(fields);
}

function notify(webhookId: string, fields: Record<string, string>): TTriggerCreateInput['actions'] {
  return [{ field: 'notification_webhook', value: [webhookId, body(fields)] }];
}

const TICKET_ID = '{{ticket.id}}';
const UPDATED_AT = '{{ticket.updated_at_with_timestamp}}';
// Two replies within one second share updated_at; the comment id tells their deliveries apart in
// the signed body, which is what the receiver deduplicates on (ticketing-webhook.ts).
const LATEST_COMMENT_ID = '{{ticket.latest_comment.id}}';

export function buildTriggerDefinitions(options: TriggerDefinitionOptions): TTriggerCreateInput[] {
  const { webhookId } = options;
  const report = (mode: 'takedown' | 'monitor') => ({
    kind: 'report',
    ticketId: TICKET_ID,
    mode,
    requesterEmail: '{{ticket.requester.email}}',
  });
  const action = (name: keyof typeof ACTION_REQUEST_TAGS) => ({
    kind: 'action',
    ticketId: TICKET_ID,
    action: name,
    updatedAt: UPDATED_AT,
  });
  const description = `${TRIGGER_MARK}; changes are overwritten when setup runs again.`;

  return [
    {
      title: `${TRIGGER_TITLE_PREFIX}Report threat for takedown`,
      description,
      active: true,
      conditions: {
        all: [tagPresent(TAG_SUBMIT), tagsAbsent(TAG_LINKED, TAG_UNLINKED, TAG_SUBMIT_MONITOR)],
      },
      actions: notify(webhookId, report('takedown')),
    },
    {
      title: `${TRIGGER_TITLE_PREFIX}Report threat for monitoring`,
      description,
      active: true,
      conditions: { all: [tagPresent(TAG_SUBMIT_MONITOR), tagsAbsent(TAG_LINKED, TAG_UNLINKED)] },
      actions: notify(webhookId, report('monitor')),
    },
    {
      title: `${TRIGGER_TITLE_PREFIX}Forward comment`,
      description,
      active: true,
      conditions: {
        all: [
          { field: 'update_type', operator: 'is', value: 'Change' },
          // not_relevant: a comment of either kind is present.
          {
            field: 'comment_is_public',
            operator: 'is',
            value: options.forwardInternalNotes ? 'not_relevant' : 'true',
          },
          tagPresent(TAG_LINKED),
        ],
      },
      actions: notify(webhookId, {
        kind: 'comment',
        ticketId: TICKET_ID,
        updatedAt: UPDATED_AT,
        commentId: LATEST_COMMENT_ID,
      }),
    },
    {
      title: `${TRIGGER_TITLE_PREFIX}Request takedown`,
      description,
      active: true,
      conditions: { all: [tagPresent(ACTION_REQUEST_TAGS.tkd), tagPresent(TAG_LINKED)] },
      actions: notify(webhookId, action('tkd')),
    },
    {
      title: `${TRIGGER_TITLE_PREFIX}Request monitoring`,
      description,
      active: true,
      conditions: { all: [tagPresent(ACTION_REQUEST_TAGS.monitor), tagPresent(TAG_LINKED)] },
      actions: notify(webhookId, action('monitor')),
    },
    {
      title: `${TRIGGER_TITLE_PREFIX}Mark safe`,
      description,
      active: true,
      conditions: { all: [tagPresent(ACTION_REQUEST_TAGS.safe), tagPresent(TAG_LINKED)] },
      actions: notify(webhookId, action('safe')),
    },
  ];
}

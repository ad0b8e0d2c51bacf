// The team's queue in Zendesk: two shared views on the Incident Status drop-down, so an approver
// works through every pending approval from Zendesk's own ticket list. Zendesk requires an `all`
// condition on a ticket property (status here: unsolved tickets only); the drop-down's values are
// `incident_status_<status>` (status-field.ts).
import type { TViewCreateInput } from '@incident-desk/zendesk-api';
import { statusOptionValue } from './status-field';

/** The statuses the sidebar shows as waiting for the customer (its `needs_you` actor). */
const NEEDS_YOUR_ACTION_STATUSES = ['approval_required', 'action_required'] as const;

export const APPROVALS_VIEW_TITLE = 'Takedowns waiting for approval';
/**
 * Every view setup makes says so in its description: how setup knows its own views when their
 * stored ids were lost (an admin's view of the same title does not carry it).
 */
const QUEUE_VIEW_MARK = '(incident-desk)';

/** Whether setup made the view: its id is stored, or it carries setup's mark. Never by title. */
export function isOwnQueueView(
  view: { id: number; description?: string | null | undefined },
  storedIds: readonly number[],
): boolean {
  return storedIds.includes(view.id) || (view.description ?? '').includes(QUEUE_VIEW_MARK);
}
export const ACTION_NEEDED_VIEW_TITLE = 'Incidents needing your action';

function statusIs(statusFieldId: number, status: string) {
  return {
    field: `custom_fields_${statusFieldId}`,
    operator: 'is',
    value: statusOptionValue(status) ?? status,
  };
}

const UNSOLVED = { field: 'status', operator: 'less_than', value: 'solved' };

export function buildQueueViews(statusFieldId: number): TViewCreateInput[] {
  // oldest first: the ticket that has waited longest is at the top
  const columns = ['nice_id', 'description', statusFieldId, 'requester', 'assignee', 'updated'];
  const output = { columns, sort_by: 'updated', sort_order: 'asc' as const };
  return [
    {
      title: APPROVALS_VIEW_TITLE,
      description: `Open tickets whose incident waits for your approval of its takedown ${QUEUE_VIEW_MARK}.`,
      all: [UNSOLVED, statusIs(statusFieldId, 'approval_required')],
      output,
    },
    {
      title: ACTION_NEEDED_VIEW_TITLE,
      description: `Open tickets whose incident waits for your organisation: an approval or an answer ${QUEUE_VIEW_MARK}.`,
      all: [UNSOLVED],
      any: NEEDS_YOUR_ACTION_STATUSES.map((status) => statusIs(statusFieldId, status)),
      output,
    },
  ];
}

// The columns a view may show (Zendesk's "View columns" table: the value in `output.columns` and
// the title the agent UI gives it), and how a view's read-only `execution` describes them.
import type { AccountRecord, ViewOutput } from '../state/model';
import type { SandboxUrls } from '../state/urls';

const VIEW_COLUMNS: Readonly<Record<string, string>> = {
  assigned: 'Assigned',
  assignee: 'Assignee',
  due_date: 'Due Date',
  group: 'Group',
  nice_id: 'ID',
  updated: 'Updated',
  updated_assignee: 'Assignee updated',
  updated_requester: 'Requester updated',
  updated_by_type: 'Updater',
  organization: 'Organization',
  priority: 'Priority',
  created: 'Requested',
  requester: 'Requester',
  locale_id: 'Requester language',
  satisfaction_score: 'Satisfaction',
  solved: 'Solved',
  status: 'Status category',
  description: 'Subject',
  submitter: 'Submitter',
  ticket_form: 'Ticket form',
  type: 'Type',
  brand: 'Brand',
  custom_status_id: 'Ticket status',
};

/** At most this many columns (Zendesk: "You can specify a total of 10 columns to a view"). */
export const MAX_VIEW_COLUMNS = 10;

/** Columns Zendesk does not group or sort by. */
export const UNSORTABLE_COLUMNS = new Set(['description', 'submitter', 'custom_status_id']);

/** What a view without `output` shows (Zendesk's own default is not documented). */
export const DEFAULT_VIEW_OUTPUT: ViewOutput = {
  columns: ['status', 'description', 'requester', 'created', 'assignee'],
  group_by: null,
  group_order: 'asc',
  sort_by: null,
  sort_order: 'asc',
};

/** A system column by name, or a custom field by its id (a number, or digits). */
export function columnKey(column: string | number): string | number {
  return typeof column === 'number' || !/^\d+$/.test(column) ? column : Number(column);
}

export function columnProblem(account: AccountRecord, column: string | number): string | null {
  const key = columnKey(column);
  if (typeof key === 'number')
    return account.ticketFields.has(key) ? null : `column ${key} is not a ticket field`;
  return key in VIEW_COLUMNS ? null : `column ${key} is not a view column`;
}

function describeColumn(urls: SandboxUrls, account: AccountRecord, column: string | number) {
  const key = columnKey(column);
  if (typeof key === 'string') return { id: key, title: VIEW_COLUMNS[key] ?? key };
  const field = account.ticketFields.get(key);
  return {
    id: key,
    title: field?.title ?? String(key),
    type: field?.type ?? 'text',
    url: urls.api(account.subdomain, `ticket_fields/${key}.json`),
  };
}

/** The view's `execution`, as Zendesk answers it (read-only). */
export function executionOf(urls: SandboxUrls, account: AccountRecord, output: ViewOutput) {
  const columns = output.columns.map((column) => describeColumn(urls, account, column));
  const ordered = (name: string | null, order: 'asc' | 'desc') =>
    name === null ? null : { ...describeColumn(urls, account, name), order };
  return {
    group_by: output.group_by,
    group_order: output.group_order,
    sort_by: output.sort_by,
    sort_order: output.sort_order,
    group: ordered(output.group_by, output.group_order),
    sort: ordered(output.sort_by, output.sort_order),
    columns,
    fields: columns.filter((column) => typeof column.id === 'string'),
    custom_fields: columns.filter((column) => typeof column.id === 'number'),
  };
}

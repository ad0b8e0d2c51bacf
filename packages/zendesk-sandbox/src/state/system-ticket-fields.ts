// The system ticket fields every Zendesk account lists before its custom ones in
// `GET /api/v2/ticket_fields`: they cannot be removed (`removable: false`), their values live in the
// ticket's own properties (subject, status, priority...) rather than in `custom_fields`, and their
// choices come as `system_field_options`. They are the same on every account, so they are not kept
// in the account's state; their ids sit below the range `SandboxState.id()` hands out (from 10001).
import type { AccountRecord } from './model';
import type { SandboxUrls } from './urls';

interface SystemFieldOption {
  name: string;
  value: string;
}

export interface SystemTicketField {
  id: number;
  type: 'subject' | 'description' | 'status' | 'tickettype' | 'priority' | 'group' | 'assignee';
  title: string;
  description: string;
  /** Required of agents (subject and status always are; the others follow account settings). */
  required: boolean;
  /** Shown to and filled in by end users on the request form. */
  inPortal: boolean;
  options: SystemFieldOption[] | null;
}

const option = (name: string, value: string): SystemFieldOption => ({ name, value });

export const SYSTEM_TICKET_FIELDS: readonly SystemTicketField[] = [
  {
    id: 1001,
    type: 'subject',
    title: 'Subject',
    description: '',
    required: true,
    inPortal: true,
    options: null,
  },
  {
    id: 1002,
    type: 'description',
    title: 'Description',
    description:
      'Please enter the details of your request. A member of our support staff will respond as soon as possible.',
    required: true,
    inPortal: true,
    options: null,
  },
  {
    id: 1003,
    type: 'status',
    title: 'Status',
    description: 'Request status',
    required: true,
    inPortal: false,
    options: [
      option('Open', 'open'),
      option('Pending', 'pending'),
      option('On-hold', 'hold'),
      option('Solved', 'solved'),
    ],
  },
  {
    id: 1004,
    type: 'tickettype',
    title: 'Type',
    description: 'Request type',
    required: false,
    inPortal: false,
    options: [
      option('Question', 'question'),
      option('Incident', 'incident'),
      option('Problem', 'problem'),
      option('Task', 'task'),
    ],
  },
  {
    id: 1005,
    type: 'priority',
    title: 'Priority',
    description: 'Request priority',
    required: false,
    inPortal: false,
    options: [
      option('Low', 'low'),
      option('Normal', 'normal'),
      option('High', 'high'),
      option('Urgent', 'urgent'),
    ],
  },
  {
    id: 1006,
    type: 'group',
    title: 'Group',
    description: 'Request group',
    required: false,
    inPortal: false,
    options: null,
  },
  {
    id: 1007,
    type: 'assignee',
    title: 'Assignee',
    description: 'Agent assigned to your request',
    required: true,
    inPortal: false,
    options: null,
  },
];

/** When the sandbox says its system fields were made (Zendesk: when the account was). */
const SYSTEM_FIELDS_CREATED_AT = '2020-01-01T00:00:00Z';

export function systemTicketField(id: number): SystemTicketField | undefined {
  return SYSTEM_TICKET_FIELDS.find((field) => field.id === id);
}

/** A system field as Zendesk's Ticket Fields API shows it. */
export function serializeSystemTicketField(
  urls: SandboxUrls,
  account: AccountRecord,
  field: SystemTicketField,
) {
  return {
    url: urls.api(account.subdomain, `ticket_fields/${field.id}.json`),
    id: field.id,
    type: field.type,
    title: field.title,
    raw_title: field.title,
    description: field.description,
    raw_description: field.description,
    position: SYSTEM_TICKET_FIELDS.indexOf(field) + 1,
    active: true,
    required: field.required,
    collapsed_for_agents: false,
    regexp_for_validation: null,
    title_in_portal: field.title,
    raw_title_in_portal: field.title,
    visible_in_portal: field.inPortal,
    editable_in_portal: field.inPortal,
    required_in_portal: field.inPortal,
    tag: null,
    created_at: SYSTEM_FIELDS_CREATED_AT,
    updated_at: SYSTEM_FIELDS_CREATED_AT,
    removable: false,
    key: null,
    agent_description: null,
    ...(field.options ? { system_field_options: field.options } : {}),
  };
}

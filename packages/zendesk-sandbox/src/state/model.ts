// In-memory records. Field names follow Zendesk's JSON so serialisation stays a thin mapping.

export type TRole = 'admin' | 'agent' | 'end-user';

export interface UserRecord {
  id: number;
  name: string;
  email: string;
  role: TRole;
  locale: string;
  time_zone: string;
  /** 1 light agent, 2 chat-only agent, 3 contributor (Zendesk's role_type); null otherwise. */
  role_type: number | null;
  /** `organization`, `groups`, `assigned`, `requested`, or null: every ticket. */
  ticket_restriction: TTicketRestriction | null;
  organization_id: number | null;
  /** The groups an agent belongs to (group memberships). */
  group_ids: number[];
  created_at: string;
  updated_at: string;
}

export type TTicketRestriction = 'organization' | 'groups' | 'assigned' | 'requested';

export interface GroupRecord {
  id: number;
  name: string;
}

export interface CustomFieldValue {
  id: number;
  value: unknown;
}

export interface TicketRecord {
  id: number;
  subject: string;
  description: string;
  status: 'new' | 'open' | 'pending' | 'hold' | 'solved' | 'closed';
  priority: string | null;
  type: string | null;
  requester_id: number;
  submitter_id: number;
  assignee_id: number | null;
  group_id: number | null;
  tags: string[];
  custom_fields: CustomFieldValue[];
  external_id: string | null;
  via_channel: string;
  /** The closed ticket this one follows up (`via.source.rel` "follow_up"), null for none. */
  via_followup_source_id?: number | null;
  created_at: string;
  updated_at: string;
}

export interface AttachmentRecord {
  id: number;
  token: string;
  file_name: string;
  content_type: string;
  data: Buffer;
}

export interface CommentRecord {
  id: number;
  ticket_id: number;
  author_id: number;
  body: string;
  html_body: string;
  plain_body: string;
  public: boolean;
  attachment_ids: number[];
  audit_id: number;
  via_channel: string;
  created_at: string;
}

/** One event of an audit (`Comment`, `Change`, `Create`...), as Zendesk lists it. */
export interface AuditEventRecord {
  id: number;
  type: string;
  field_name?: string;
  value?: unknown;
  previous_value?: unknown;
  [key: string]: unknown;
}

/** One update of a ticket as Zendesk keeps it: what changed, and the update's own metadata. */
export interface AuditRecord {
  id: number;
  ticket_id: number;
  author_id: number;
  created_at: string;
  via_channel: string;
  /** What the request's `ticket.metadata` carried: the audit's `metadata.custom`. */
  custom: Record<string, unknown>;
  events: AuditEventRecord[];
}

export interface UploadRecord {
  token: string;
  attachment_ids: number[];
  expires_at: number;
  used: boolean;
}

export interface TicketFieldRecord {
  id: number;
  type: string;
  title: string;
  description: string;
  active: boolean;
  required: boolean;
  custom_field_options: { id: number; name: string; value: string }[];
  position: number;
  created_at: string;
  updated_at: string;
}

export interface WebhookRecord {
  id: string;
  name: string;
  description: string;
  endpoint: string;
  http_method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  request_format: 'json' | 'xml' | 'form_encoded';
  status: 'active' | 'inactive';
  subscriptions: string[];
  authentication: { type: string; data: Record<string, string>; add_position: string } | null;
  custom_headers: Record<string, string>;
  secret: string;
  created_at: string;
  created_by: string;
  updated_at: string;
}

export interface TriggerCondition {
  field: string;
  operator: string;
  value?: unknown;
}

export interface TriggerAction {
  field: string;
  value: unknown;
}

export interface TriggerRecord {
  id: number;
  title: string;
  description: string | null;
  active: boolean;
  position: number;
  conditions: { all: TriggerCondition[]; any: TriggerCondition[] };
  actions: TriggerAction[];
  created_at: string;
  updated_at: string;
}

/** A view's output as Zendesk keeps it: the columns shown, and how tickets are grouped and sorted. */
export interface ViewOutput {
  /** System column names (`status`, `nice_id`...) or custom field ids. */
  columns: (string | number)[];
  group_by: string | null;
  group_order: 'asc' | 'desc';
  sort_by: string | null;
  sort_order: 'asc' | 'desc';
}

export interface ViewRecord {
  id: number;
  title: string;
  description: string | null;
  active: boolean;
  position: number;
  conditions: { all: TriggerCondition[]; any: TriggerCondition[] };
  output: ViewOutput;
  /** Null: every agent of the account sees it (a shared view). */
  restriction: { type: 'Group' | 'User'; id: number; ids?: number[] } | null;
  created_at: string;
  updated_at: string;
}

export interface SearchSnapshot {
  ticket: TicketRecord;
  visibleAt: number;
}

interface DeliveryAttempt {
  at: string;
  status: number | null;
  error: string | null;
}

export interface DeliveryRecord {
  invocation_id: string;
  webhook_id: string;
  trigger_id: number | null;
  ticket_id: number | null;
  endpoint: string;
  body: string;
  duplicate: boolean;
  attempts: DeliveryAttempt[];
  state: 'pending' | 'succeeded' | 'failed';
}

export interface AccountRecord {
  id: number;
  subdomain: string;
  users: Map<number, UserRecord>;
  groups: Map<number, GroupRecord>;
  tickets: Map<number, TicketRecord>;
  comments: Map<number, CommentRecord[]>;
  /** Every update of each ticket, oldest first. */
  audits: Map<number, AuditRecord[]>;
  /** The account's default language (Admin Center, Localization), as `GET /api/v2/locales` marks it. */
  defaultLocale: string;
  attachments: Map<number, AttachmentRecord>;
  uploads: Map<string, UploadRecord>;
  ticketFields: Map<number, TicketFieldRecord>;
  webhooks: Map<string, WebhookRecord>;
  triggers: Map<number, TriggerRecord>;
  views: Map<number, ViewRecord>;
  searchIndex: Map<number, SearchSnapshot[]>;
  searchLagMs: number;
  rateLimit: AccountLimits;
  jobs: Map<string, JobRecord>;
  duplicateNextDeliveries: number;
  deliveries: DeliveryRecord[];
  nextTicketId: number;
  /** `Idempotency-Key` of a ticket create → the ticket it created. */
  idempotencyKeys: Map<string, number>;
}

export interface OAuthClientRecord {
  id: number;
  identifier: string;
  secret: string;
  name: string;
  redirect_uri: string[];
  kind: 'confidential' | 'public';
  /** null for a global client; otherwise the only account it works on. */
  subdomain: string | null;
  /** The user who created a local client: client_credentials tokens act as them. */
  owner_user_id: number | null;
}

export interface TokenRecord {
  id: number;
  subdomain: string;
  client_identifier: string;
  user_id: number;
  scopes: string[];
  access_token: string;
  expires_at: number | null;
  refresh_token: string | null;
  refresh_expires_at: number | null;
  revoked: boolean;
  created_at: string;
}

export interface AuthorizationCodeRecord {
  code: string;
  subdomain: string;
  client_identifier: string;
  user_id: number;
  redirect_uri: string;
  scopes: string[];
  code_challenge: string | null;
  code_challenge_method: string | null;
  expires_at: number;
  used: boolean;
}

/** Zendesk's limits on one account (README, "Limits"); every figure can be changed through the control API. */
export interface AccountLimits {
  /** The plan's limit on every Support API request (Enterprise: 700 a minute). */
  requestsPerMinute: number;
  windowMs: number;
  /** The Update Ticket endpoint's own limit per account: 100 a minute. */
  updateTicketPerMinute: number;
  updateTicketWindowMs: number;
  /** Updates one user may make to one ticket: 30 per 10 minutes. */
  ticketUpdatesPerUser: number;
  ticketUpdatesWindowMs: number;
  /** Background jobs (update_many) queued or running at once: 30. */
  maxActiveJobs: number;
}

export interface JobResultRecord {
  id: number;
  /** Position in the request, on failed tickets only. */
  index?: number;
  action: 'update';
  success: boolean;
  status: string;
  error?: string;
  details?: string;
}

export interface JobRecord {
  id: string;
  job_type: string;
  status: 'queued' | 'working' | 'completed' | 'failed';
  total: number;
  progress: number | null;
  message: string | null;
  results: JobResultRecord[] | null;
  /** Milliseconds since the epoch, on the sandbox clock: a job is readable for a day after. */
  created_at: number;
}

import type {
  AccountRecord,
  AttachmentRecord,
  AuditRecord,
  CommentRecord,
  TicketFieldRecord,
  TicketRecord,
  TriggerRecord,
  UserRecord,
  WebhookRecord,
} from '../state/model';
import type { SandboxUrls } from '../state/urls';

function via(channel: string, followupSourceId?: number | null) {
  if (followupSourceId) {
    // Zendesk's shape for a follow-up of a closed ticket
    return { channel, source: { from: { ticket_id: followupSourceId }, to: {}, rel: 'follow_up' } };
  }
  return { channel, source: { from: {}, to: {}, rel: null } };
}

export function serializeUser(urls: SandboxUrls, account: AccountRecord, user: UserRecord) {
  return {
    id: user.id,
    url: urls.api(account.subdomain, `users/${user.id}.json`),
    name: user.name,
    email: user.email,
    created_at: user.created_at,
    updated_at: user.updated_at,
    time_zone: user.time_zone,
    iana_time_zone: user.time_zone,
    phone: null,
    locale: user.locale,
    locale_id: 1,
    organization_id: user.organization_id,
    role: user.role,
    role_type: user.role_type,
    ticket_restriction:
      user.role === 'admin'
        ? null
        : user.role === 'end-user'
          ? 'requested'
          : user.ticket_restriction,
    verified: true,
    active: true,
    suspended: false,
    tags: [],
    user_fields: {},
    default_group_id: user.role === 'end-user' ? null : (user.group_ids[0] ?? null),
  };
}

/** Every active custom field appears on a ticket, null when unset, as in Zendesk. */
function customFields(account: AccountRecord, ticket: TicketRecord) {
  return [...account.ticketFields.values()]
    .filter((field) => field.active)
    .map((field) => ({
      id: field.id,
      value: ticket.custom_fields.find((f) => f.id === field.id)?.value ?? null,
    }));
}

export function serializeTicket(urls: SandboxUrls, account: AccountRecord, ticket: TicketRecord) {
  const fields = customFields(account, ticket);
  return {
    url: urls.api(account.subdomain, `tickets/${ticket.id}.json`),
    id: ticket.id,
    external_id: ticket.external_id,
    via: via(ticket.via_channel, ticket.via_followup_source_id),
    created_at: ticket.created_at,
    updated_at: ticket.updated_at,
    generated_timestamp: Math.floor(Date.parse(ticket.updated_at) / 1000),
    type: ticket.type,
    subject: ticket.subject,
    raw_subject: ticket.subject,
    description: ticket.description,
    priority: ticket.priority,
    status: ticket.status,
    recipient: null,
    requester_id: ticket.requester_id,
    submitter_id: ticket.submitter_id,
    assignee_id: ticket.assignee_id,
    organization_id: null,
    group_id: ticket.group_id,
    collaborator_ids: [],
    follower_ids: [],
    email_cc_ids: [],
    forum_topic_id: null,
    problem_id: null,
    has_incidents: false,
    is_public: (account.comments.get(ticket.id) ?? []).some((c) => c.public),
    due_at: null,
    tags: [...ticket.tags],
    custom_fields: fields,
    satisfaction_rating: null,
    sharing_agreement_ids: [],
    custom_status_id: null,
    fields,
    followup_ids: [],
    ticket_form_id: null,
    brand_id: account.id,
    allow_channelback: false,
    allow_attachments: true,
    from_messaging_channel: false,
  };
}

export function serializeAttachment(
  urls: SandboxUrls,
  account: AccountRecord,
  attachment: AttachmentRecord,
) {
  return {
    url: urls.api(account.subdomain, `attachments/${attachment.id}.json`),
    id: attachment.id,
    file_name: attachment.file_name,
    content_url: `${urls.account(account.subdomain)}/attachments/token/${attachment.token}/?name=${encodeURIComponent(attachment.file_name)}`,
    mapped_content_url: `${urls.account(account.subdomain)}/attachments/token/${attachment.token}/?name=${encodeURIComponent(attachment.file_name)}`,
    content_type: attachment.content_type,
    size: attachment.data.length,
    width: null,
    height: null,
    inline: false,
    deleted: false,
    malware_access_override: false,
    malware_scan_result: 'malware_not_found',
    thumbnails: [],
  };
}

export function serializeComment(
  urls: SandboxUrls,
  account: AccountRecord,
  comment: CommentRecord,
) {
  return {
    id: comment.id,
    type: 'Comment',
    author_id: comment.author_id,
    body: comment.body,
    html_body: comment.html_body,
    plain_body: comment.plain_body,
    public: comment.public,
    attachments: comment.attachment_ids
      .map((id) => account.attachments.get(id))
      .filter((a): a is AttachmentRecord => a !== undefined)
      .map((a) => serializeAttachment(urls, account, a)),
    audit_id: comment.audit_id,
    via: via(comment.via_channel),
    created_at: comment.created_at,
    metadata: {
      system: {
        client: 'zendesk-sandbox',
        ip_address: '127.0.0.1',
        location: 'Localhost',
        latitude: 0,
        longitude: 0,
      },
      custom: {},
    },
  };
}

/**
 * A serializer of a titled admin record (a ticket field, a trigger): what Zendesk answers for every
 * such record, then what `rest` adds for its kind.
 */
function titledRecord<R extends TicketFieldRecord | TriggerRecord, Rest extends object>(
  resource: 'ticket_fields' | 'triggers',
  rest: (record: R) => Rest,
) {
  return (urls: SandboxUrls, account: AccountRecord, record: R) => ({
    url: urls.api(account.subdomain, `${resource}/${record.id}.json`),
    id: record.id,
    title: record.title,
    raw_title: record.title,
    description: record.description,
    active: record.active,
    position: record.position,
    created_at: record.created_at,
    updated_at: record.updated_at,
    ...rest(record),
  });
}

export const serializeTicketField = titledRecord('ticket_fields', (field: TicketFieldRecord) => ({
  type: field.type,
  raw_description: field.description,
  required: field.required,
  collapsed_for_agents: false,
  regexp_for_validation: null,
  title_in_portal: field.title,
  raw_title_in_portal: field.title,
  visible_in_portal: false,
  editable_in_portal: false,
  required_in_portal: false,
  tag: null,
  removable: true,
  key: null,
  agent_description: null,
  ...(field.custom_field_options.length > 0
    ? {
        custom_field_options: field.custom_field_options.map((o) => ({
          ...o,
          raw_name: o.name,
          default: false,
        })),
      }
    : {}),
}));

export function serializeWebhook(webhook: WebhookRecord) {
  return {
    id: webhook.id,
    name: webhook.name,
    description: webhook.description,
    status: webhook.status,
    subscriptions: webhook.subscriptions,
    created_at: webhook.created_at,
    created_by: webhook.created_by,
    updated_at: webhook.updated_at,
    updated_by: webhook.created_by,
    endpoint: webhook.endpoint,
    http_method: webhook.http_method,
    request_format: webhook.request_format,
    ...(webhook.authentication
      ? {
          authentication: {
            type: webhook.authentication.type,
            add_position: webhook.authentication.add_position,
          },
        }
      : {}),
    ...(Object.keys(webhook.custom_headers).length > 0
      ? { custom_headers: webhook.custom_headers }
      : {}),
  };
}

export const serializeTrigger = titledRecord('triggers', (trigger: TriggerRecord) => ({
  conditions: trigger.conditions,
  actions: trigger.actions,
  default: false,
  category_id: '1',
}));

/** An audit as the Ticket Audits API answers it: the request's metadata under `metadata.custom`. */
export function serializeAudit(audit: AuditRecord) {
  return {
    id: audit.id,
    ticket_id: audit.ticket_id,
    created_at: audit.created_at,
    author_id: audit.author_id,
    metadata: {
      system: { client: 'zendesk-sandbox', ip_address: '127.0.0.1', location: 'Localhost' },
      custom: audit.custom,
    },
    via: via(audit.via_channel),
    events: audit.events,
  };
}

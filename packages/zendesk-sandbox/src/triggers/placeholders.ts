import type { AccountRecord, CommentRecord, TicketRecord, UserRecord } from '../state/model';
import type { SandboxUrls } from '../state/urls';

export interface PlaceholderContext {
  account: AccountRecord;
  ticket: TicketRecord;
  actor: UserRecord;
  urls: SandboxUrls;
}

function latest(comments: CommentRecord[], publicOnly: boolean): CommentRecord | undefined {
  return [...comments].reverse().find((c) => !publicOnly || c.public);
}

function userValues(prefix: string, user: UserRecord | undefined): Record<string, string> {
  const [first = '', ...rest] = (user?.name ?? '').split(' ');
  return {
    [`${prefix}.id`]: user ? String(user.id) : '',
    [`${prefix}.name`]: user?.name ?? '',
    [`${prefix}.first_name`]: first,
    [`${prefix}.last_name`]: rest.join(' '),
    [`${prefix}.email`]: user?.email ?? '',
    [`${prefix}.language`]: user?.locale ?? '',
    [`${prefix}.role`]: user?.role ?? '',
  };
}

/** The placeholder values Zendesk offers for a ticket, as strings (Zendesk renders everything as text). */
export function placeholderValues(context: PlaceholderContext): Record<string, string> {
  const { account, ticket, actor, urls } = context;
  const comments = account.comments.get(ticket.id) ?? [];
  const lastComment = latest(comments, false);
  const lastPublic = latest(comments, true);
  const group = ticket.group_id === null ? undefined : account.groups.get(ticket.group_id);
  const agentUrl = urls.agentTicket(account.subdomain, ticket.id);
  const values: Record<string, string> = {
    'ticket.id': String(ticket.id),
    'ticket.title': ticket.subject,
    'ticket.subject': ticket.subject,
    'ticket.description': ticket.description,
    'ticket.status': ticket.status.charAt(0).toUpperCase() + ticket.status.slice(1),
    'ticket.priority': ticket.priority ?? '',
    'ticket.ticket_type': ticket.type ?? '',
    'ticket.tags': ticket.tags.join(' '),
    'ticket.external_id': ticket.external_id ?? '',
    'ticket.via': ticket.via_channel === 'api' ? 'Web Service' : 'Web Form',
    'ticket.url': agentUrl.replace(/^https?:\/\//, ''),
    'ticket.link': agentUrl,
    'ticket.account': account.subdomain,
    'ticket.created_at_with_timestamp': ticket.created_at,
    'ticket.updated_at_with_timestamp': ticket.updated_at,
    'ticket.group.name': group?.name ?? '',
    'ticket.group.id': group ? String(group.id) : '',
    'ticket.latest_comment': lastComment?.body ?? '',
    'ticket.latest_comment.value': lastComment?.body ?? '',
    'ticket.latest_comment.id': lastComment ? String(lastComment.id) : '',
    'ticket.latest_comment.is_public': lastComment ? String(lastComment.public) : '',
    'ticket.latest_comment.author.name':
      (lastComment && account.users.get(lastComment.author_id)?.name) ?? '',
    'ticket.latest_public_comment': lastPublic?.body ?? '',
    'ticket.latest_public_comment.value': lastPublic?.body ?? '',
    'account.subdomain': account.subdomain,
    ...userValues('ticket.requester', account.users.get(ticket.requester_id)),
    ...userValues(
      'ticket.assignee',
      ticket.assignee_id === null ? undefined : account.users.get(ticket.assignee_id),
    ),
    ...userValues('current_user', actor),
  };
  for (const field of ticket.custom_fields) {
    const definition = account.ticketFields.get(field.id);
    const text = field.value === null || field.value === undefined ? '' : String(field.value);
    values[`ticket.ticket_field_${field.id}`] = text;
    values[`ticket.ticket_field_option_title_${field.id}`] =
      definition?.custom_field_options.find((o) => o.value === text)?.name ?? text;
  }
  return values;
}

/**
 * Fills `{{name}}` placeholders. Unknown names render empty, as Liquid does. With `json`, values are
 * escaped for use inside a JSON string (Zendesk's JSON webhook bodies; escaping is our best reading).
 */
export function fillTemplate(
  template: string,
  values: Record<string, string>,
  json: boolean,
): string {
  return template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
    const value = values[name] ?? '';
    return json ? JSON.stringify(value).slice(1, -1) : value;
  });
}

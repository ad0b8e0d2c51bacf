import type {
  AccountRecord,
  AuditEventRecord,
  AuditRecord,
  CommentRecord,
  CustomFieldValue,
  TicketRecord,
  UserRecord,
} from './model';
import { recordInvalid, recordNotFound, type SandboxState } from './sandbox-state';
import { normaliseTags } from './tags';
import type { TCommentInput, TTicketInput } from './ticket-input';
import { renderCommentBodies } from '../text/comment-bodies';

export const TICKET_STATUSES = ['new', 'open', 'pending', 'hold', 'solved', 'closed'] as const;

export type AuditEvent = AuditEventRecord;

/** Zendesk: "you can add up to 1 kilobyte of custom metadata" to an audit (what it does beyond is not documented). */
export const MAX_AUDIT_METADATA_BYTES = 1024;

export interface TicketChange {
  kind: 'create' | 'update';
  account: AccountRecord;
  actor: UserRecord;
  channel: string;
  previous: TicketRecord | null;
  ticket: TicketRecord;
  comment: CommentRecord | null;
  events: AuditEvent[];
  auditId: number;
  /** The request's `metadata`: the audit's `metadata.custom`. */
  metadata: Record<string, unknown>;
  /** The audit kept for the change; null when the update changed nothing (Zendesk keeps none then). */
  audit: AuditRecord | null;
}

/** Runs after a change is applied and before it is committed (triggers), then after commit (index, webhooks, listeners). */
export interface TicketChangeHooks {
  beforeCommit(change: TicketChange): void;
  afterCommit(change: TicketChange): void;
}

function cloneTicket(ticket: TicketRecord): TicketRecord {
  return {
    ...ticket,
    tags: [...ticket.tags],
    custom_fields: ticket.custom_fields.map((f) => ({ ...f })),
  };
}

/** The request's metadata, refused over Zendesk's documented size. */
function auditMetadata(input: TTicketInput): Record<string, unknown> {
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

function isStatus(value: string): value is TicketRecord['status'] {
  return (TICKET_STATUSES as readonly string[]).includes(value);
}

export class TicketService {
  constructor(
    private readonly state: SandboxState,
    private readonly hooks: TicketChangeHooks,
  ) {}

  get(account: AccountRecord, ticketId: number): TicketRecord {
    const ticket = account.tickets.get(ticketId);
    if (!ticket) throw recordNotFound();
    return ticket;
  }

  create(
    account: AccountRecord,
    input: TTicketInput,
    actor: UserRecord,
    channel: string,
  ): TicketChange {
    const commentInput: TCommentInput | undefined =
      input.comment ?? (input.description !== undefined ? { body: input.description } : undefined);
    if (
      !commentInput ||
      ((commentInput.body ?? '').trim() === '' && (commentInput.html_body ?? '').trim() === '')
    ) {
      throw recordInvalid({
        base: [{ description: 'Description: cannot be blank', error: 'BlankValue' }],
      });
    }
    // Zendesk: "The parameter only works with closed tickets. It has no effect with other tickets."
    // A follow-up inherits the closed ticket's tags unless the request names its own.
    const source =
      input.via_followup_source_id === undefined
        ? undefined
        : account.tickets.get(input.via_followup_source_id);
    const followupSource = source?.status === 'closed' ? source : undefined;
    const requester = this.resolveRequester(account, input, actor);
    const now = this.state.isoNow();
    const ticket: TicketRecord = {
      id: account.nextTicketId,
      subject: input.subject ?? '',
      description: '',
      status: 'new',
      priority: input.priority ?? null,
      type: input.type ?? null,
      requester_id: requester.id,
      submitter_id: input.submitter_id ?? actor.id,
      assignee_id: null,
      group_id: null,
      tags: [],
      custom_fields: [],
      external_id: input.external_id ?? null,
      via_channel: channel,
      via_followup_source_id: followupSource?.id ?? null,
      created_at: now,
      updated_at: now,
    };
    const change: TicketChange = {
      kind: 'create',
      account,
      actor,
      channel,
      previous: null,
      ticket,
      comment: null,
      events: [],
      auditId: this.state.id(),
      metadata: auditMetadata(input),
      audit: null,
    };
    if (followupSource && input.tags === undefined) ticket.tags = [...followupSource.tags];
    this.applyFields(change, input);
    if (input.status === undefined && ticket.assignee_id !== null) ticket.status = 'open';
    // Zendesk: "The submitter always becomes the author of the first comment on the ticket."
    const comment = this.addComment(change, {
      ...commentInput,
      author_id: commentInput.author_id ?? ticket.submitter_id,
    });
    ticket.description = comment.body;
    if (ticket.subject === '') ticket.subject = comment.body.split('\n')[0]?.slice(0, 80) ?? '';
    account.nextTicketId += 1;
    change.events.unshift({
      id: this.state.id(),
      type: 'Create',
      field_name: 'status',
      value: ticket.status,
    });
    return this.commit(change);
  }

  update(
    account: AccountRecord,
    ticketId: number,
    input: TTicketInput,
    actor: UserRecord,
    channel: string,
  ): TicketChange {
    const stored = this.get(account, ticketId);
    if (stored.status === 'closed') {
      throw recordInvalid({
        status: [
          { description: 'Status: closed prevents ticket update', error: 'ClosedPreventsUpdate' },
        ],
      });
    }
    const ticket = cloneTicket(stored);
    const change: TicketChange = {
      kind: 'update',
      account,
      actor,
      channel,
      previous: cloneTicket(stored),
      ticket,
      comment: null,
      events: [],
      auditId: this.state.id(),
      metadata: auditMetadata(input),
      audit: null,
    };
    if (input.requester_id !== undefined || input.requester !== undefined) {
      ticket.requester_id = this.resolveRequester(account, input, actor).id;
    }
    if (input.subject !== undefined) ticket.subject = input.subject;
    this.applyFields(change, input);
    if (
      input.comment &&
      ((input.comment.body ?? '') !== '' || (input.comment.html_body ?? '') !== '')
    ) {
      this.addComment(change, input.comment);
    }
    const isAgent = actor.role !== 'end-user';
    if (
      input.status === undefined &&
      ticket.status === 'new' &&
      isAgent &&
      (change.comment || ticket.assignee_id !== null)
    ) {
      ticket.status = 'open';
    }
    if (
      input.status === undefined &&
      !isAgent &&
      change.comment &&
      ['pending', 'solved'].includes(ticket.status)
    ) {
      ticket.status = 'open';
    }
    ticket.updated_at = this.state.isoNow();
    return this.commit(change);
  }

  /** The control API's "reply as an agent / note": a ticket update that only adds a comment. */
  addCommentAs(
    account: AccountRecord,
    ticketId: number,
    comment: TCommentInput,
    author: UserRecord,
    channel: string,
  ): TicketChange {
    return this.update(
      account,
      ticketId,
      { comment: { ...comment, author_id: author.id } },
      author,
      channel,
    );
  }

  private commit(change: TicketChange): TicketChange {
    this.recordDiffEvents(change);
    this.hooks.beforeCommit(change);
    const { account, ticket } = change;
    account.tickets.set(ticket.id, ticket);
    if (change.events.length > 0) {
      const audit: AuditRecord = {
        id: change.auditId,
        ticket_id: ticket.id,
        author_id: change.actor.id,
        created_at: ticket.updated_at,
        via_channel: change.channel,
        custom: change.metadata,
        events: change.events,
      };
      account.audits.set(ticket.id, [...(account.audits.get(ticket.id) ?? []), audit]);
      change.audit = audit;
    }
    if (change.comment) {
      const list = account.comments.get(ticket.id) ?? [];
      list.push(change.comment);
      account.comments.set(ticket.id, list);
    }
    this.hooks.afterCommit(change);
    return change;
  }

  private recordDiffEvents(change: TicketChange): void {
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
          id: this.state.id(),
          type: 'Change',
          field_name: field,
          value: ticket[field],
          previous_value: previous[field],
        });
      }
    }
    if (previous.tags.join(' ') !== ticket.tags.join(' ')) {
      change.events.push({
        id: this.state.id(),
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
          id: this.state.id(),
          type: 'Change',
          field_name: String(field.id),
          value: field.value,
          previous_value: before,
        });
      }
    }
  }

  private resolveRequester(
    account: AccountRecord,
    input: TTicketInput,
    actor: UserRecord,
  ): UserRecord {
    if (input.requester_id !== undefined) {
      const user = account.users.get(input.requester_id);
      if (!user)
        throw recordInvalid({
          requester: [{ description: 'Requester: is invalid', error: 'InvalidValue' }],
        });
      return user;
    }
    if (input.requester) {
      const email = input.requester.email.toLowerCase();
      for (const user of account.users.values()) if (user.email === email) return user;
      return this.state.createUser(account, {
        name: input.requester.name ?? email.split('@')[0] ?? email,
        email,
        role: 'end-user',
      });
    }
    return actor;
  }

  private applyFields(change: TicketChange, input: TTicketInput): void {
    const { account, ticket } = change;
    if (input.status !== undefined) {
      if (!isStatus(input.status)) {
        throw recordInvalid({
          status: [{ description: `Status: ${input.status} is not valid`, error: 'InvalidValue' }],
        });
      }
      ticket.status = input.status;
    }
    if (input.priority !== undefined) ticket.priority = input.priority;
    if (input.type !== undefined) ticket.type = input.type;
    if (input.external_id !== undefined) ticket.external_id = input.external_id;
    let assigneeId = input.assignee_id;
    if (input.assignee_email !== undefined) {
      const found = [...account.users.values()].find(
        (u) => u.email === input.assignee_email?.toLowerCase(),
      );
      assigneeId = found ? found.id : -1;
    }
    if (assigneeId !== undefined) {
      if (assigneeId !== null) {
        const assignee = account.users.get(assigneeId);
        if (!assignee || assignee.role === 'end-user') {
          throw recordInvalid({
            assignee: [{ description: 'Assignee: is invalid', error: 'InvalidValue' }],
          });
        }
        if (ticket.group_id === null && input.group_id === undefined)
          ticket.group_id = [...account.groups.keys()][0] ?? null;
      }
      ticket.assignee_id = assigneeId;
    }
    if (input.group_id !== undefined) {
      if (input.group_id !== null && !account.groups.has(input.group_id)) {
        throw recordInvalid({
          group: [{ description: 'Group: is invalid', error: 'InvalidValue' }],
        });
      }
      ticket.group_id = input.group_id;
    }
    if (input.tags !== undefined) ticket.tags = normaliseTags(input.tags);
    if (input.additional_tags !== undefined)
      ticket.tags = normaliseTags([...ticket.tags, ...input.additional_tags]);
    if (input.remove_tags !== undefined) {
      const removed = normaliseTags(input.remove_tags);
      ticket.tags = ticket.tags.filter((t) => !removed.includes(t));
    }
    for (const field of [...(input.custom_fields ?? []), ...(input.fields ?? [])]) {
      setCustomField(account, ticket, field);
    }
  }

  private addComment(change: TicketChange, input: TCommentInput): CommentRecord {
    const { account, ticket, actor } = change;
    const authorId = input.author_id ?? actor.id;
    const author = account.users.get(authorId);
    if (!author)
      throw recordInvalid({
        author: [{ description: 'Author: is invalid', error: 'InvalidValue' }],
      });
    const isPublic = author.role === 'end-user' ? true : (input.public ?? true);
    const attachmentIds: number[] = [];
    for (const token of input.uploads ?? []) {
      const upload = account.uploads.get(token);
      if (!upload || upload.used || upload.expires_at < this.state.now()) {
        throw recordInvalid({
          uploads: [
            { description: `Upload token ${token} is invalid or expired`, error: 'InvalidValue' },
          ],
        });
      }
      upload.used = true;
      attachmentIds.push(...upload.attachment_ids);
    }
    const comment: CommentRecord = {
      id: this.state.id(),
      ticket_id: ticket.id,
      author_id: author.id,
      ...renderCommentBodies(input),
      public: isPublic,
      attachment_ids: attachmentIds,
      audit_id: change.auditId,
      via_channel: change.channel,
      created_at: this.state.isoNow(),
    };
    change.comment = comment;
    change.events.push({
      id: comment.id,
      type: 'Comment',
      author_id: author.id,
      body: comment.body,
      html_body: comment.html_body,
      plain_body: comment.plain_body,
      public: comment.public,
      attachments: [],
      audit_id: change.auditId,
    });
    return comment;
  }
}

/** Sets one custom field; unknown field ids are ignored as Zendesk does. Drop-down values also become tags. */
export function setCustomField(
  account: AccountRecord,
  ticket: TicketRecord,
  field: CustomFieldValue,
): void {
  const definition = account.ticketFields.get(field.id);
  if (!definition) return;
  let value: unknown = field.value;
  if (definition.type === 'checkbox') value = value === true || value === 'true';
  else if (
    value !== null &&
    value !== undefined &&
    typeof value !== 'string' &&
    definition.type !== 'multiselect'
  )
    value = String(value);
  if (value === '' || value === undefined) value = null;
  if (definition.type === 'tagger') {
    const before = ticket.custom_fields.find((f) => f.id === field.id)?.value;
    if (typeof before === 'string') ticket.tags = ticket.tags.filter((t) => t !== before);
    if (typeof value === 'string') {
      if (!definition.custom_field_options.some((o) => o.value === value)) {
        throw recordInvalid({
          [`custom_field_${field.id}`]: [
            {
              description: `${definition.title}: ${value} is not a valid option`,
              error: 'InvalidValue',
            },
          ],
        });
      }
      ticket.tags = normaliseTags([...ticket.tags, value]);
    }
  }
  const existing = ticket.custom_fields.find((f) => f.id === field.id);
  if (existing) existing.value = value;
  else ticket.custom_fields.push({ id: field.id, value });
}

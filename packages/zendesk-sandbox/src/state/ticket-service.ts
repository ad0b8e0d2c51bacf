// Creating and updating a ticket as Zendesk does: the fields applied, the comment added, the audit
// kept, and the hooks run around the commit (triggers before, index and webhooks after).
import type { AccountRecord, AuditRecord, TicketRecord, UserRecord } from './model';
import { recordInvalid, recordNotFound, type SandboxState } from './sandbox-state';
import { auditMetadata, recordDiffEvents } from './ticket-audit';
import type { TicketChange, TicketChangeHooks } from './ticket-change';
import { addComment } from './ticket-comments';
import { applyFields } from './ticket-fields';
import type { TCommentInput, TTicketInput } from './ticket-input';

function cloneTicket(ticket: TicketRecord): TicketRecord {
  return {
    ...ticket,
    tags: [...ticket.tags],
    custom_fields: ticket.custom_fields.map((f) => ({ ...f })),
  };
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
    applyFields(change, input);
    if (input.status === undefined && ticket.assignee_id !== null) ticket.status = 'open';
    // Zendesk: "The submitter always becomes the author of the first comment on the ticket."
    const comment = addComment(this.state, change, {
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
    applyFields(change, input);
    if (
      input.comment &&
      ((input.comment.body ?? '') !== '' || (input.comment.html_body ?? '') !== '')
    ) {
      addComment(this.state, change, input.comment);
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
    recordDiffEvents(this.state, change);
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
}

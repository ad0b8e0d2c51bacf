// The control API's tickets: opened and commented on as a person of the account (attachments
// uploaded first), and read whole (comments, audits, users, search and webhook state).
import type { Request, Router } from 'express';
import { z } from 'zod';
import { serializeAudit, serializeComment, serializeTicket, serializeUser } from '../api/serialize';
import type { SandboxContext } from '../api/context';
import { addUpload } from '../state/attachments';
import type { AccountRecord } from '../state/model';
import { recordInvalid, SandboxError } from '../state/sandbox-state';
import { indexedTickets } from '../state/search-index';
import { accountOf, userOf } from './control-lookups';

const ZAttachmentInput = z.object({
  file_name: z.string().min(1),
  content_type: z.string().default('application/octet-stream'),
  content_base64: z.string(),
});
const ZCommentControl = z.object({
  author_id: z.number().int(),
  body: z.string().optional(),
  html_body: z.string().optional(),
  public: z.boolean().default(true),
  attachments: z.array(ZAttachmentInput).default([]),
});
const ZTicketControl = z.object({
  requester_id: z.number().int().optional(),
  requester: z.object({ name: z.string().optional(), email: z.string().email() }).optional(),
  subject: z.string().min(1),
  body: z.string().optional(),
  html_body: z.string().optional(),
  tags: z.array(z.string()).optional(),
  custom_fields: z.array(z.object({ id: z.number().int(), value: z.unknown() })).optional(),
  attachments: z.array(ZAttachmentInput).default([]),
});

export function ticketControlRoutes(router: Router, ctx: SandboxContext): void {
  const { state, urls, tickets } = ctx;
  const account = (req: Request) => accountOf(state, req);
  const uploadTokens = (acc: AccountRecord, attachments: z.infer<typeof ZAttachmentInput>[]) =>
    attachments.map((a) => {
      const added = addUpload(
        state,
        acc,
        {
          fileName: a.file_name,
          contentType: a.content_type,
          data: Buffer.from(a.content_base64, 'base64'),
        },
        undefined,
      );
      if (!added) throw new Error('upload failed');
      return added.upload.token;
    });

  router.post('/accounts/:subdomain/tickets', (req, res) => {
    const acc = account(req);
    const input = ZTicketControl.parse(req.body);
    let requester = input.requester_id !== undefined ? userOf(acc, input.requester_id) : undefined;
    if (!requester && input.requester) {
      const email = input.requester.email.toLowerCase();
      requester =
        [...acc.users.values()].find((u) => u.email === email) ??
        state.createUser(acc, { name: input.requester.name ?? email, email, role: 'end-user' });
    }
    if (!requester)
      throw recordInvalid({
        requester: [
          { description: 'Requester: give requester_id or requester', error: 'BlankValue' },
        ],
      });
    const change = tickets.create(
      acc,
      {
        subject: input.subject,
        comment: {
          body: input.body,
          html_body: input.html_body,
          uploads: uploadTokens(acc, input.attachments),
        },
        ...(input.tags ? { tags: input.tags } : {}),
        ...(input.custom_fields ? { custom_fields: input.custom_fields } : {}),
      },
      requester,
      'web',
    );
    res.status(201).json({ ticket: serializeTicket(urls, acc, change.ticket) });
  });

  router.post('/accounts/:subdomain/tickets/:id/comments', (req, res) => {
    const acc = account(req);
    const input = ZCommentControl.parse(req.body);
    const author = userOf(acc, input.author_id);
    if (author.role === 'end-user' && !input.public) {
      throw recordInvalid({
        public: [{ description: 'End users cannot write internal notes', error: 'InvalidValue' }],
      });
    }
    const change = tickets.addCommentAs(
      acc,
      Number(req.params.id),
      {
        body: input.body,
        html_body: input.html_body,
        public: input.public,
        uploads: uploadTokens(acc, input.attachments),
      },
      author,
      'web',
    );
    if (!change.comment)
      throw new SandboxError(422, {
        error: 'RecordInvalid',
        description: 'Comment: cannot be blank',
      });
    res.status(201).json({
      ticket: serializeTicket(urls, acc, change.ticket),
      comment: serializeComment(urls, acc, change.comment),
    });
  });

  router.get('/accounts/:subdomain/tickets/:id', (req, res) => {
    const acc = account(req);
    const ticket = tickets.get(acc, Number(req.params.id));
    const comments = acc.comments.get(ticket.id) ?? [];
    const userIds = new Set([
      ticket.requester_id,
      ticket.submitter_id,
      ...comments.map((c) => c.author_id),
    ]);
    if (ticket.assignee_id !== null) userIds.add(ticket.assignee_id);
    res.json({
      ticket: serializeTicket(urls, acc, ticket),
      comments: comments.map((c) => serializeComment(urls, acc, c)),
      audits: (acc.audits.get(ticket.id) ?? []).map(serializeAudit),
      users: [...userIds]
        .map((id) => acc.users.get(id))
        .filter((u) => u !== undefined)
        .map((u) => serializeUser(urls, acc, u)),
      searchable: indexedTickets(acc, state.now()).some((t) => t.id === ticket.id),
      webhook_deliveries: acc.deliveries.filter((d) => d.ticket_id === ticket.id),
    });
  });
}

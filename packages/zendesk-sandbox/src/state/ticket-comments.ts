// A comment a ticket change adds: its author (an end user's is always public), its uploads, its
// bodies and the audit's Comment event.
import { renderCommentBodies } from '../text/comment-bodies';
import type { CommentRecord } from './model';
import { recordInvalid, type SandboxState } from './sandbox-state';
import type { TicketChange } from './ticket-change';
import type { TCommentInput } from './ticket-input';

/** The comment the change adds (its uploads used), with its Comment event. */
export function addComment(
  state: SandboxState,
  change: TicketChange,
  input: TCommentInput,
): CommentRecord {
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
    if (!upload || upload.used || upload.expires_at < state.now()) {
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
    id: state.id(),
    ticket_id: ticket.id,
    author_id: author.id,
    ...renderCommentBodies(input),
    public: isPublic,
    attachment_ids: attachmentIds,
    audit_id: change.auditId,
    via_channel: change.channel,
    created_at: state.isoNow(),
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

// A link found by the recovery search makes the ticket what a reported ticket is: tagged
// incident_linked (the comment and action triggers require it), no longer unlinked or asking for a
// report, and its earlier comments counted as already known to the incident, so only replies
// written from now on are forwarded.
import type { AccountContext } from '../../accounts';
import { readTicketComments } from '../ticket-events/read-ticket-comments';
import { SUBMIT_TAGS, TAG_LINKED, TAG_UNLINKED } from '../../setup';
import { updateTicket } from '../ticket-writer';
import type { ResolvedSyncDeps } from '../sync-deps';

export async function markRecoveredTicketLinked(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  ticketId: number,
  incidentId: string,
): Promise<void> {
  await markEarlierCommentsKnown(deps, ctx, ticketId, incidentId, 'predates the recovered link');
  await updateTicket(
    ctx,
    deps.db,
    ticketId,
    { addTags: [TAG_LINKED], removeTags: [TAG_UNLINKED, ...SUBMIT_TAGS] },
    { priority: false, now: deps.now },
  );
}

/**
 * The ticket's comments so far counted as known to the incident (never forwarded): a link made
 * after them (recovered, or adopted by a new install) forwards only replies written from now on.
 */
export async function markEarlierCommentsKnown(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  ticketId: number,
  incidentId: string,
  detail: string,
): Promise<void> {
  const { comments } = await readTicketComments(ctx.zendesk, ticketId);
  if (comments.length === 0) return;
  await deps.db.prisma.forwardedComment.createMany({
    data: comments.map((comment) => ({
      accountId: ctx.accountId,
      commentId: BigInt(comment.id),
      ticketId: BigInt(ticketId),
      incidentId,
      status: 'skipped' as const,
      detail,
    })),
    skipDuplicates: true,
  });
}

// Comments come from the API, newest first with their authors sideloaded (never from a webhook body).
import type { TComment, TUser, ZendeskClient } from '../../accounts';

export interface TicketCommentsRead {
  /** Newest first. */
  comments: TComment[];
  users: Map<number, TUser>;
}

/**
 * Reads newest first; `stopAfterPage` ends the walk once a page holds what the caller needs
 * (e.g. a comment already handled), so a long ticket is not read whole on every event.
 */
export async function readTicketComments(
  zendesk: ZendeskClient,
  ticketId: number,
  stopAfterPage: (comments: TComment[]) => boolean = () => false,
): Promise<TicketCommentsRead> {
  const comments: TComment[] = [];
  const users = new Map<number, TUser>();
  let page = await zendesk.tickets.comments.list(ticketId, {
    sortOrder: 'desc',
    includeUsers: true,
  });
  for (;;) {
    comments.push(...page.comments);
    for (const user of page.users) users.set(user.id, user);
    if (stopAfterPage(page.comments) || !page.hasNextPage()) break;
    page = await page.getNextPage();
  }
  return { comments, users };
}

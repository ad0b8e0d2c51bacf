// Retry of a failed comment forward from the admin page: the sidebar's own retry (the record is
// removed and a comment job queued for the ticket), acting as the signed-in admin.
import type { TDatabase } from '@incident-desk/db';
import type { DatabaseAccountContextProvider } from '../accounts';
import type { Inbox } from '../ingest';
import { COMMENT_FORWARD_PREFIX, retryForward } from '../sidebar-api';
import type { AdminSession } from './admin-sessions';
import { AppError } from '../http';
import type { ReconciliationResult } from './reconciliation';

export async function retryCommentForward(
  deps: { db: TDatabase; accounts: DatabaseAccountContextProvider; inbox: Inbox },
  session: AdminSession,
  commentId: string,
  now: Date,
): Promise<ReconciliationResult> {
  const notFound: ReconciliationResult = {
    error: new AppError('not_found', { message: 'no such failed forward' }),
  };
  if (!/^\d{1,19}$/.test(commentId)) return notFound;
  const row = await deps.db.prisma.forwardedComment.findUnique({
    where: {
      accountId_commentId: { accountId: session.accountId, commentId: BigInt(commentId) },
    },
  });
  if (!row || row.status !== 'failed') return notFound;
  const ctx = await deps.accounts.forAccount(session.accountId);
  const result = await retryForward(
    deps.db,
    deps.inbox,
    {
      ctx,
      ticketId: Number(row.ticketId),
      agentId: session.zendeskUserId,
      agentEmail: `a Zendesk admin (user ${session.zendeskUserId})`,
      agentName: session.userName,
    },
    `${COMMENT_FORWARD_PREFIX}${commentId}`,
    now,
  );
  if ('error' in result) return { error: result.error };
  return { status: 202, message: result.message };
}

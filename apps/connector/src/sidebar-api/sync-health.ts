// Sync health of one ticket, from the sync tables: the last incident event applied, comments still
// being forwarded, and forwards or ticket jobs that failed for good (each with a retry id).
import type { TDatabase } from '@incident-desk/db';
import type { TSyncHealth } from '@incident-desk/sidebar/contract';
import { TICKET_EVENT_QUEUE } from '../http/ticketing-webhook';

/** forward-comments.ts claims a comment with this detail before posting it. */
export const IN_FLIGHT_PREFIX = 'in flight';
export const COMMENT_FORWARD_PREFIX = 'comment-';
export const FAILED_JOB_PREFIX = 'job-';

function kindOfJob(payload: unknown): string {
  const body = (payload as { body?: { kind?: unknown } } | null)?.body;
  return typeof body?.kind === 'string' ? body.kind : 'sync';
}

export async function readSyncHealth(
  db: TDatabase,
  accountId: string,
  ticketId: number,
): Promise<TSyncHealth> {
  const ticket = BigInt(ticketId);
  const [state, comments, failures] = await Promise.all([
    db.prisma.ticketSyncState.findUnique({
      where: { accountId_ticketId: { accountId, ticketId: ticket } },
    }),
    db.prisma.forwardedComment.findMany({
      where: { accountId, ticketId: ticket, status: 'failed' },
      orderBy: { updatedAt: 'asc' },
    }),
    db.prisma.syncFailure.findMany({
      where: { accountId, ticketId: ticket, resolvedAt: null, queue: TICKET_EVENT_QUEUE },
      orderBy: { createdAt: 'asc' },
    }),
  ]);
  const inFlight = comments.filter((c) => c.detail?.startsWith(IN_FLIGHT_PREFIX));
  const failed = comments.filter((c) => !c.detail?.startsWith(IN_FLIGHT_PREFIX));
  return {
    lastEventAppliedAt: state?.lastEventAt.toISOString() ?? null,
    pendingForwards: inFlight.length,
    failedForwards: [
      ...failed.map((c) => ({
        id: `${COMMENT_FORWARD_PREFIX}${c.commentId}`,
        kind: 'comment',
        failedAt: c.updatedAt.toISOString(),
        // the forwarder posts a comment once and never resends it by itself
        attempts: 1,
        lastError: c.detail ?? 'not forwarded',
      })),
      ...failures.map((f) => ({
        id: `${FAILED_JOB_PREFIX}${f.id}`,
        kind: kindOfJob(f.payload),
        failedAt: f.createdAt.toISOString(),
        attempts: 1,
        lastError: f.reason,
      })),
    ],
  };
}

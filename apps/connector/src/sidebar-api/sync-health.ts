// Sync health of one ticket, from the sync tables: the last incident event applied, comments still
// being forwarded, incident changes still waiting for the ticket writer (and the account's pause,
// when Zendesk answered it 429), and forwards, ticket jobs or ticket updates that failed for good
// (each with a retry id).
import type { TDatabase } from '@incident-desk/db';
import type { TSyncHealth } from '@incident-desk/sidebar-contract';
import { TICKET_EVENT_QUEUE, TICKET_WRITE_QUEUE } from '../jobs';

/** forward-comments.ts claims a comment with this detail before posting it. */
export const IN_FLIGHT_PREFIX = 'in flight';
export const COMMENT_FORWARD_PREFIX = 'comment-';
export const FAILED_JOB_PREFIX = 'job-';

function kindOfJob(queue: string, payload: unknown): string {
  if (queue === TICKET_WRITE_QUEUE) return 'ticket_update';
  const body = (payload as { body?: { kind?: unknown } } | null)?.body;
  return typeof body?.kind === 'string' ? body.kind : 'sync';
}

export async function readSyncHealth(
  db: TDatabase,
  accountId: string,
  ticketId: number,
  now: Date = new Date(),
): Promise<TSyncHealth> {
  const ticket = BigInt(ticketId);
  const [state, comments, failures, waiting, pause] = await Promise.all([
    db.prisma.ticketSyncState.findUnique({
      where: { accountId_ticketId: { accountId, ticketId: ticket } },
    }),
    db.prisma.forwardedComment.findMany({
      where: { accountId, ticketId: ticket, status: 'failed' },
      orderBy: { updatedAt: 'asc' },
    }),
    db.prisma.syncFailure.findMany({
      where: {
        accountId,
        ticketId: ticket,
        resolvedAt: null,
        queue: { in: [TICKET_EVENT_QUEUE, TICKET_WRITE_QUEUE] },
      },
      orderBy: { createdAt: 'asc' },
    }),
    db.prisma.pendingTicketChange.aggregate({
      where: { accountId, ticketId: ticket, writtenAt: null, failedReason: null },
      _count: { _all: true },
      _min: { createdAt: true },
    }),
    db.prisma.ticketWritePause.findUnique({ where: { accountId } }),
  ]);
  const inFlight = comments.filter((c) => c.detail?.startsWith(IN_FLIGHT_PREFIX));
  const failed = comments.filter((c) => !c.detail?.startsWith(IN_FLIGHT_PREFIX));
  return {
    lastEventAppliedAt: state?.lastEventAt.toISOString() ?? null,
    pendingForwards: inFlight.length,
    waitingTicketUpdates: waiting._count._all,
    waitingSince: waiting._min.createdAt?.toISOString() ?? null,
    writesPausedUntil: pause && pause.pausedUntil > now ? pause.pausedUntil.toISOString() : null,
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
        kind: kindOfJob(f.queue, f.payload),
        failedAt: f.createdAt.toISOString(),
        attempts: 1,
        lastError: f.reason,
      })),
    ],
  };
}

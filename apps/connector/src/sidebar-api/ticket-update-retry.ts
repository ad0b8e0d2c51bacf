// "Retry now" on the sidebar's late-updates line: this ticket's incident changes that wait for the
// account's writer become due at once (their ready time set to now), as the admin page's retry does
// for the whole account (admin/ticket-write-retry.ts) and as a failed update's retry does
// (ticket-actions.ts). The writer's sweep (every second, ticket-writer-service.ts) then writes them
// under the budgets. Changes a request is carrying are left to it. While Zendesk has paused the
// account (a 429), nothing is changed and the answer says until when: a retry cannot help before.
import type { TDatabase } from '@incident-desk/db';
import { AppError } from '../http/app-error';
import type { ActingAgent } from './authenticate';
import type { ActionResult } from './ticket-actions';

/** The longest wait the sidebar shows (retryAfterSeconds is 0 to 600). */
const MAX_RETRY_AFTER_SECONDS = 600;

export async function retryWaitingTicketUpdates(
  db: TDatabase,
  caller: ActingAgent,
  now: Date,
): Promise<ActionResult> {
  const { accountId } = caller.ctx;
  const pause = await db.prisma.ticketWritePause.findUnique({ where: { accountId } });
  if (pause && pause.pausedUntil > now) {
    const seconds = Math.ceil((pause.pausedUntil.getTime() - now.getTime()) / 1000);
    return {
      error: new AppError('zendesk_limited', {
        message: `Zendesk asked to wait: the next attempt is at ${pause.pausedUntil.toISOString()}`,
        retryAfterSeconds: Math.min(MAX_RETRY_AFTER_SECONDS, seconds),
      }),
    };
  }
  const { count } = await db.prisma.pendingTicketChange.updateMany({
    where: {
      accountId,
      ticketId: BigInt(caller.ticketId),
      writtenAt: null,
      failedReason: null,
      writeHolder: null,
      writeJobId: null,
      readyAt: { gt: now },
    },
    data: { readyAt: now },
  });
  return {
    status: 200,
    message: count > 0 ? 'ticket updates due now' : 'no ticket update was put off',
  };
}

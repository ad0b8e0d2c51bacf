// "Retry now" on the sidebar's late-updates line: this ticket's put-off changes become due at once
// (sync/ticket-writes/make-changes-due.ts), as the admin page's retry does for the whole account.
// While Zendesk has paused the account (a 429), nothing is changed and the answer says until when:
// a retry cannot help before.
import type { TDatabase } from '@incident-desk/db';
import { AppError } from '../http';
import { makePutOffChangesDue, writesPausedUntil } from '../sync';
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
  const pausedUntil = await writesPausedUntil(db, accountId, now);
  if (pausedUntil) {
    const seconds = Math.ceil((pausedUntil.getTime() - now.getTime()) / 1000);
    return {
      error: new AppError('zendesk_limited', {
        message: `Zendesk asked to wait: the next attempt is at ${pausedUntil.toISOString()}`,
        retryAfterSeconds: Math.min(MAX_RETRY_AFTER_SECONDS, seconds),
      }),
    };
  }
  const count = await makePutOffChangesDue(
    db,
    { accountId, ticketId: BigInt(caller.ticketId) },
    now,
  );
  return {
    status: 200,
    message: count > 0 ? 'ticket updates due now' : 'no ticket update was put off',
  };
}

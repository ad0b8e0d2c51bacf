// "Retry now" (the admin page's for an account, the sidebar's for one ticket): waiting changes a
// failure put off (their ready time pushed out) become due at once, so the account's writer, which
// looks for due changes every second on whichever instance holds the account
// (ticket-writer-service.ts), writes them at its next pass. Changes a request is carrying (held by
// a live pass, or an update_many job being followed) are left to it; a pause Zendesk asked for
// (429 Retry-After, ticket_write_pause) still holds, and callers say so.
import type { TDatabase } from '@incident-desk/db';

/** How many put-off changes of the account (or of one of its tickets) were made due now. */
export async function makePutOffChangesDue(
  db: TDatabase,
  scope: { accountId: string; ticketId?: bigint },
  now: Date,
): Promise<number> {
  const { count } = await db.prisma.pendingTicketChange.updateMany({
    where: {
      accountId: scope.accountId,
      ...(scope.ticketId === undefined ? {} : { ticketId: scope.ticketId }),
      writtenAt: null,
      failedReason: null,
      writeHolder: null,
      writeJobId: null,
      readyAt: { gt: now },
    },
    data: { readyAt: now },
  });
  return count;
}

/** Until when Zendesk asked the account's writes to wait (a 429), or null. */
export async function writesPausedUntil(
  db: TDatabase,
  accountId: string,
  now: Date,
): Promise<Date | null> {
  const pause = await db.prisma.ticketWritePause.findUnique({ where: { accountId } });
  return pause && pause.pausedUntil > now ? pause.pausedUntil : null;
}

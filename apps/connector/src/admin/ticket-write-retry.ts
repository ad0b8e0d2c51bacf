// "Retry now" on the admin page: the account's waiting ticket changes that a failure put off
// (their ready time pushed out) become due at once, so the account's writer, which looks for due
// changes every second on whichever instance holds the account (ticket-writer-service.ts), writes
// them at its next pass. Changes a request is carrying (held by a live pass, or an update_many job
// being followed) are left to that pass; a pause Zendesk asked for (429 Retry-After) still holds.
import type { TDatabase } from '@incident-desk/db';

export interface TicketWriteRetry {
  /** Changes made due now. */
  woken: number;
  /** Zendesk asked to wait until then (a 429): nothing is written before. */
  pausedUntil: string | null;
}

export async function retryTicketWritesNow(
  db: TDatabase,
  accountId: string,
  now: Date,
): Promise<TicketWriteRetry> {
  const [woken, pause] = await Promise.all([
    db.prisma.pendingTicketChange.updateMany({
      where: {
        accountId,
        writtenAt: null,
        failedReason: null,
        writeHolder: null,
        writeJobId: null,
        readyAt: { gt: now },
      },
      data: { readyAt: now },
    }),
    db.prisma.ticketWritePause.findUnique({ where: { accountId } }),
  ]);
  const pausedUntil = pause && pause.pausedUntil > now ? pause.pausedUntil.toISOString() : null;
  return { woken: woken.count, pausedUntil };
}

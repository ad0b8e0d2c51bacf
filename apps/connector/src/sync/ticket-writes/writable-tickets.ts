// The tickets a pass of the account's writer may write now: changes ready, not leased to a request
// under way, within each ticket's budget; and when the rest may next be written.
import type { TDatabase } from '@incident-desk/db';
import { leasedTickets } from './change-leases';
import type { DrainOptions } from './drain-options';
import { ticketsBlockedUntil } from './write-budget';

export interface WritableTickets {
  /** Oldest waiting change first. */
  eligible: bigint[];
  /** When something waiting that is not eligible may next be written; null when nothing waits. */
  nextAt: Date | null;
}

export async function writableTickets(
  db: TDatabase,
  accountId: string,
  now: Date,
  options: DrainOptions,
): Promise<WritableTickets> {
  const waiting = await db.prisma.pendingTicketChange.groupBy({
    by: ['ticketId'],
    where: { accountId, writtenAt: null, failedReason: null },
    _min: { readyAt: true, createdAt: true },
  });
  if (waiting.length === 0) return { eligible: [], nextAt: null };
  const leased = await leasedTickets(db, accountId, now, options.ignoreReadyAt ?? false);
  const ready = waiting
    .filter(
      (w) =>
        !leased.has(w.ticketId) &&
        (options.ignoreReadyAt || w._min.readyAt!.getTime() <= now.getTime()),
    )
    .sort((a, b) => a._min.createdAt!.getTime() - b._min.createdAt!.getTime());
  let nextAt: Date | null = earliest([
    ...waiting
      .filter((w) => !ready.includes(w) && !leased.has(w.ticketId))
      .map((w) => w._min.readyAt!),
    ...leased.values(),
  ]);
  if (ready.length === 0) return { eligible: [], nextAt };

  const blocked = await ticketsBlockedUntil(
    db,
    accountId,
    ready.map((w) => w.ticketId),
    options.limits,
    now,
  );
  nextAt = earliest([...(nextAt ? [nextAt] : []), ...blocked.values()]);
  return { eligible: ready.filter((w) => !blocked.has(w.ticketId)).map((w) => w.ticketId), nextAt };
}

function earliest(dates: Date[]): Date | null {
  if (dates.length === 0) return null;
  return new Date(Math.min(...dates.map((d) => d.getTime())));
}

// Rule 3 of the contract: ordering is unspecified, so the Status field and the ticket status only
// move for an event at least as new as the last one applied to the ticket.
import type { TDatabase } from '@incident-desk/db';

export interface TicketOrderState {
  lastEventAt: Date;
  lastStatus: string | null;
}

export async function readTicketOrder(
  db: TDatabase,
  accountId: string,
  ticketId: number,
): Promise<TicketOrderState | null> {
  return db.prisma.ticketSyncState.findUnique({
    where: { accountId_ticketId: { accountId, ticketId: BigInt(ticketId) } },
    select: { lastEventAt: true, lastStatus: true },
  });
}

export function isOlderThanApplied(state: TicketOrderState | null, occurredAt: Date): boolean {
  return state !== null && occurredAt.getTime() < state.lastEventAt.getTime();
}

/**
 * Claims the ticket's order for a status event before the ticket is written: true when the event
 * is at least as new as the last applied one (the state now names it), false when a newer one was
 * applied. Recording first narrows the window in which two workers could interleave, and a retry
 * of the same event still wins (same timestamp) and rewrites the field.
 */
export async function advanceTicketOrder(
  db: TDatabase,
  accountId: string,
  ticketId: number,
  occurredAt: Date,
  status: string,
): Promise<boolean> {
  const key = { accountId, ticketId: BigInt(ticketId) };
  const moved = await db.prisma.ticketSyncState.updateMany({
    where: { ...key, lastEventAt: { lte: occurredAt } },
    data: { lastEventAt: occurredAt, lastStatus: status },
  });
  if (moved.count > 0) return true;
  const created = await db.prisma.ticketSyncState.createMany({
    data: [{ ...key, lastEventAt: occurredAt, lastStatus: status }],
    skipDuplicates: true,
  });
  if (created.count > 0) return true;
  // the row appeared meanwhile: decide against it
  const again = await db.prisma.ticketSyncState.updateMany({
    where: { ...key, lastEventAt: { lte: occurredAt } },
    data: { lastEventAt: occurredAt, lastStatus: status },
  });
  return again.count > 0;
}

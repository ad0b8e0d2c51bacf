// Rule 3 of the contract: ordering is unspecified, so the Status field and the ticket status only
// move for an event at least as new as the last one applied to them. They keep separate orders:
// an incident.action_required, which may only reopen the ticket, is emitted with (and may overtake)
// the status_changed that carries the new status, and must not hide it from the Status field.
import type { TDatabase } from '@incident-desk/db';

export interface TicketOrderState {
  lastEventAt: Date;
  lastStatus: string | null;
}

/** Which of the ticket's two orders an event leads. */
export interface TicketOrderClaim {
  /** The event's status is the newest: it moves the Status field. */
  statusField: boolean;
  /** The event is the newest to touch the ticket status: it may reopen or solve the ticket. */
  ticketStatus: boolean;
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

/**
 * Claims the ticket's orders for an event before the ticket is written. Recording first narrows
 * the window in which two workers could interleave, and a retry of the same event still wins (same
 * timestamp) and rewrites the field. `status` is the Status field value the event sets; undefined
 * (action_required) claims only the ticket status.
 */
export async function advanceTicketOrder(
  db: TDatabase,
  accountId: string,
  ticketId: number,
  occurredAt: Date,
  status: string | undefined,
): Promise<TicketOrderClaim> {
  const key = { accountId, ticketId: BigInt(ticketId) };
  const created = await db.prisma.ticketSyncState.createMany({
    data: [
      {
        ...key,
        lastEventAt: occurredAt,
        lastStatus: status ?? null,
        lastStatusAt: status === undefined ? null : occurredAt,
      },
    ],
    skipDuplicates: true,
  });
  if (created.count > 0) return { statusField: status !== undefined, ticketStatus: true };
  const ticketStatus = await db.prisma.ticketSyncState.updateMany({
    where: { ...key, lastEventAt: { lte: occurredAt } },
    data: { lastEventAt: occurredAt },
  });
  if (status === undefined) return { statusField: false, ticketStatus: ticketStatus.count > 0 };
  const statusField = await db.prisma.ticketSyncState.updateMany({
    where: {
      ...key,
      OR: [{ lastStatusAt: null }, { lastStatusAt: { lte: occurredAt } }],
    },
    data: { lastStatusAt: occurredAt, lastStatus: status },
  });
  return { statusField: statusField.count > 0, ticketStatus: ticketStatus.count > 0 };
}

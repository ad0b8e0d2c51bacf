// Rule 3 of the contract: ordering is unspecified, so the Status field and the ticket status only
// move for an event at least as new as the last one applied to them. They keep separate orders:
// an incident.action_required, which may only reopen the ticket, is emitted with (and may overtake)
// the status_changed that carries the new status, and must not hide it from the Status field.
import { querySql, type TDatabase } from '@incident-desk/db';

/** Which of the ticket's two orders an event leads. */
export interface TicketOrderClaim {
  /** The event's status is the newest: it moves the Status field. */
  statusField: boolean;
  /** The event is the newest to touch the ticket status: it may reopen or solve the ticket. */
  ticketStatus: boolean;
  /** The Status field's value in the ticket's order after this event (a newer one's when it lost). */
  lastStatus: string | null;
}

/**
 * One statement: the ticket's orders created, or each moved to the event when it is at least as
 * new. After it, an order holds the event's time exactly when the event leads it (an older event
 * leaves a newer time; a retry of the same event, or another of the same moment, leads again).
 */
const ADVANCE_SQL = `
  INSERT INTO ticket_sync_state AS s
         (account_id, ticket_id, last_event_at, last_status, last_status_at, created_at, updated_at)
  VALUES ($1::uuid, $2::bigint, $3::timestamptz, $4::text,
          CASE WHEN $4::text IS NULL THEN NULL ELSE $3::timestamptz END, now(), now())
  ON CONFLICT (account_id, ticket_id) DO UPDATE SET
    last_event_at = GREATEST(s.last_event_at, EXCLUDED.last_event_at),
    last_status = CASE WHEN $4::text IS NOT NULL
                        AND (s.last_status_at IS NULL OR s.last_status_at <= $3::timestamptz)
                       THEN $4::text ELSE s.last_status END,
    last_status_at = CASE WHEN $4::text IS NOT NULL
                           AND (s.last_status_at IS NULL OR s.last_status_at <= $3::timestamptz)
                          THEN $3::timestamptz ELSE s.last_status_at END,
    updated_at = now()
  RETURNING s.last_event_at = $3::timestamptz AS "ticketStatus",
            $4::text IS NOT NULL AND s.last_status_at = $3::timestamptz AS "statusField",
            s.last_status AS "lastStatus"`;

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
  const [row] = await querySql<TicketOrderClaim>(db, ADVANCE_SQL, [
    accountId,
    String(ticketId),
    occurredAt.toISOString(),
    status ?? null,
  ]);
  return {
    statusField: row?.statusField === true,
    ticketStatus: row?.ticketStatus === true,
    lastStatus: row?.lastStatus ?? null,
  };
}

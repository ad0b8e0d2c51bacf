// An incident event's job no longer writes the ticket: it records what the event asks of the
// ticket here, durably, and the account's writer applies it (coalesced with whatever else waits
// for the ticket, paced under Zendesk's limits). One row per event and ticket: a redelivered event
// finds its row and changes nothing.
import { querySql, type TDatabase } from '@incident-desk/db';
import type { ChangeEntry } from '../../notes';
import type { IncidentEventName } from '../incident-events/incident-event';
import type { TicketStatus } from '../ticket-writer';

export interface TicketChangeRecord {
  accountId: string;
  ticketId: number;
  incidentId: string;
  eventRef: string;
  eventName: IncidentEventName;
  eventAt: Date;
  /** When the connector received the event: the start of the event-to-note latency. */
  receivedAt?: Date | undefined;
  entry: ChangeEntry | null;
  statusValue?: string | undefined;
  ticketStatus?: TicketStatus | undefined;
  addTags?: string[] | undefined;
  /** Not written before this time (a companion event or the rest of a burst may follow). */
  readyAt: Date;
  /** Already on the ticket (the first note of a ticket the event opened): only remembered. */
  writtenAt?: Date | undefined;
}

/** The pending_ticket_change row of a change (also written inside a caller's transaction). */
export function ticketChangeRow(change: TicketChangeRecord) {
  return {
    accountId: change.accountId,
    ticketId: BigInt(change.ticketId),
    incidentId: change.incidentId,
    eventRef: change.eventRef,
    eventName: change.eventName,
    eventAt: change.eventAt,
    receivedAt: change.receivedAt ?? null,
    ...(change.entry === null ? {} : { entry: change.entry }),
    statusValue: change.statusValue ?? null,
    ticketStatus: change.ticketStatus ?? null,
    addTags: change.addTags ?? [],
    readyAt: change.readyAt,
    writtenAt: change.writtenAt ?? null,
  };
}

// Every incident event records one: plain SQL, one statement (Prisma's query building cost more).
const RECORD_SQL = `
  INSERT INTO pending_ticket_change
         (id, account_id, ticket_id, incident_id, event_ref, event_name, event_at, received_at,
          entry, status_value, ticket_status, add_tags, ready_at, written_at, created_at)
  VALUES (gen_random_uuid(), $1::uuid, $2::bigint, $3, $4, $5, $6::timestamptz, $7::timestamptz,
          $8::jsonb, $9, $10, $11::text[], $12::timestamptz, $13::timestamptz, now())
  ON CONFLICT DO NOTHING
  RETURNING 1 AS recorded`;

const isoOrNull = (at: Date | null) => (at === null ? null : at.toISOString());

export async function recordTicketChange(
  db: TDatabase,
  change: TicketChangeRecord,
): Promise<'recorded' | 'duplicate'> {
  const row = ticketChangeRow(change);
  const recorded = await querySql(db, RECORD_SQL, [
    row.accountId,
    String(row.ticketId),
    row.incidentId,
    row.eventRef,
    row.eventName,
    row.eventAt.toISOString(),
    isoOrNull(row.receivedAt),
    change.entry === null ? null : JSON.stringify(change.entry),
    row.statusValue,
    row.ticketStatus,
    row.addTags,
    row.readyAt.toISOString(),
    isoOrNull(row.writtenAt),
  ]);
  return recorded.length === 1 ? 'recorded' : 'duplicate';
}

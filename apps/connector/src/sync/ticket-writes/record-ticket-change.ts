// An incident event's job no longer writes the ticket: it records what the event asks of the
// ticket here, durably, and the account's writer applies it (coalesced with whatever else waits
// for the ticket, paced under Zendesk's limits). One row per event and ticket: a redelivered event
// finds its row and changes nothing.
import type { TDatabase } from '@incident-desk/db';
import type { ChangeEntry } from '../../notes/incident-change-note';
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

export async function recordTicketChange(
  db: TDatabase,
  change: TicketChangeRecord,
): Promise<'recorded' | 'duplicate'> {
  const created = await db.prisma.pendingTicketChange.createMany({
    data: [ticketChangeRow(change)],
    skipDuplicates: true,
  });
  return created.count === 1 ? 'recorded' : 'duplicate';
}

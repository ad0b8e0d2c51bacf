// A ticket for an incident that no ticket tracks: built from the incident's detail, opened under a
// claim (incident_ticket_claim), then linked. The Threat field keeps the raw value for reporting; the
// subject and the note show it defanged.
import { DETECTED_TICKET_TAGS, statusOptionValue } from '../../setup';
import type { TDetailedIncident } from '@incident-desk/incident-api';
import { normalizeThreat } from '@incident-desk/threat-text';
import type { AccountContext } from '../../accounts';
import {
  detectedIncidentFallbackNote,
  detectedIncidentNote,
  detectedTicketSubject,
  displayThreat,
  GENERIC_THREAT,
  noteTexts,
  threatValue,
} from '../../notes';
import { recordOwnNote } from '../echo-ledger';
import { markNote } from '../ticket-writer';
import { recordTicketChange } from '../ticket-writes/record-ticket-change';
import { writeMetadata } from '../ticket-writes/write-metadata';
import type { ResolvedSyncDeps } from '../sync-deps';
import { untilStored } from '../until-stored';
import { completeClaim, releaseClaim, type Claim, type LinkedTicket } from './incident-link-store';
import type { IncidentEvent, IncidentEventName } from './incident-event';
import { advanceTicketOrder } from './ticket-event-order';
import { incidentForms, readDetailOrNull } from './incident-forms';

/** Whether the first note (the incident detail) already shows the event's news. */
const COVERED_BY_FIRST_NOTE = {
  'incident.created': true,
  'incident.status_changed': true,
  'incident.history_created': false,
  'incident.takedown_updated': false,
  'incident.action_required': false,
} as const satisfies Record<IncidentEventName, boolean>;

/** Whether the event that opened a ticket still has to be applied to it after the first note. */
export function firstNoteCovers(event: IncidentEvent): boolean {
  return COVERED_BY_FIRST_NOTE[event.name];
}

function listingsOf(detail: TDetailedIncident): { listed: number; listings: number } {
  const listed = detail.blocklists.filter((listing) => listing.status === 'listed').length;
  return { listed, listings: detail.blocklists.length };
}

export async function openDetectedTicket(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: IncidentEvent,
  claim: Claim,
  /** The detail as read for the recovery search; read here when there is none. */
  detailRead?: TDetailedIncident | null,
): Promise<LinkedTicket> {
  let ticketId: number;
  let status: string | undefined;
  let threat: string | null;
  let shownListings = { listed: 0, listings: 0 };
  let detail: TDetailedIncident | null;
  try {
    // 404 or an unreadable detail: the ticket still opens, with what the event said
    detail = detailRead ?? (await readDetailOrNull(ctx, event.incidentId, event.clientId));
    if (detail) shownListings = listingsOf(detail);
    status =
      detail?.status ?? (event.name === 'incident.status_changed' ? event.status : undefined);
    threat = detail ? threatValue(detail) : null;
    const texts = noteTexts(ctx.noteLocale);
    const body = markNote(
      detail ? detectedIncidentNote(detail, texts) : detectedIncidentFallbackNote(status, texts),
    );
    // The create's audit names the event the first note covers. An event whose news is applied
    // afterwards (its own write names it) is named only as the one that opened the ticket.
    const metadata = writeMetadata(
      firstNoteCovers(event) ? { events: [event.ref] } : { openedBy: event.ref },
    );
    const statusOption = status === undefined ? undefined : statusOptionValue(status);
    const customFields = [
      { id: ctx.fields.incidentId, value: event.incidentId },
      ...(threat === null ? [] : [{ id: ctx.fields.threat, value: threat }]),
      ...(statusOption !== undefined && ctx.fields.status !== null
        ? [{ id: ctx.fields.status, value: statusOption }]
        : []),
    ];
    const created = await ctx.zendesk.tickets.create(
      {
        subject: detectedTicketSubject(status, detail ? displayThreat(detail) : GENERIC_THREAT),
        comment: { body, public: false },
        type: 'incident',
        tags: DETECTED_TICKET_TAGS,
        custom_fields: customFields,
        metadata,
        ...(ctx.settings.newTicketGroupId === null
          ? {}
          : { group_id: ctx.settings.newTicketGroupId }),
      },
      { idempotencyKey: `incident-desk:detected:${ctx.accountId}:${event.incidentId}` },
    );
    const openedId = created.ticket.id;
    ticketId = openedId;
    // the ticket is open: what follows settles the claim, across a database restart too
    await untilStored(() => recordOwnNote(deps.db.prisma, ctx.accountId, openedId, body));
  } catch (error) {
    // Nothing was opened (or the create's outcome is unknown, which the recovery search of the
    // retry covers): free the claim so the retry, or another worker, can try again.
    await releaseClaim(deps.db, claim);
    throw error;
  }
  // the threat kept on the link: a later ticket naming it is told before reporting it
  const threatKept = threat === null ? null : normalizeThreat(threat);
  const forms = incidentForms(detail?.id ?? null, event.incidentId);
  const linkId = await untilStored(() =>
    completeClaim(deps.db, claim, ticketId, threatKept, shownListings, forms),
  );
  // When the first note covers the event that opened the ticket, a redelivery of it changes
  // nothing; any other opening event is then applied to the ticket like a linked one.
  if (firstNoteCovers(event))
    await recordTicketChange(deps.db, {
      accountId: ctx.accountId,
      ticketId,
      incidentId: event.incidentId,
      eventRef: event.ref,
      eventName: event.name,
      eventAt: event.occurredAt,
      receivedAt: event.receivedAt,
      entry: null,
      readyAt: deps.now(),
      writtenAt: deps.now(),
    });
  if (status !== undefined) {
    await advanceTicketOrder(deps.db, ctx.accountId, ticketId, event.occurredAt, status);
  }
  // the link as completeClaim saved it: the run goes on from it without reading it back
  return { linkId, ticketId, incidentId: forms.incidentId, reportRef: forms.otherForm };
}

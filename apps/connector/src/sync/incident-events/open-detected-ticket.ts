// A ticket for an incident that no ticket tracks: built from the incident's detail, opened under a
// claim (incident_ticket_claim), then linked. The Threat field keeps the raw value for reporting; the
// subject and the note show it defanged.
import type { TDetailedIncident } from '@incident-desk/incident-api';
import type { AccountContext } from '../../accounts/account-context';
import {
  detectedIncidentFallbackNote,
  detectedIncidentNote,
  detectedTicketSubject,
} from '../../notes/detected-incident-note';
import { normalizeText } from '../../notes/normalize';
import { displayThreat, GENERIC_THREAT, threatValue } from '../../notes/threat-display';
import { markNote } from '../ticket-writer';
import type { ResolvedDeps } from './handler-deps';
import { completeClaim, releaseClaim, type Claim } from './incident-link-store';
import type { ParsedIncidentEvent } from './parse-incident-event';
import { advanceTicketOrder } from './ticket-event-order';
import { isTransientServiceError } from './transient-error';

export const DETECTED_TICKET_TAGS = ['incident_linked', 'incident_detected'];

async function readDetail(
  ctx: AccountContext,
  event: ParsedIncidentEvent,
  incidentId: string,
): Promise<TDetailedIncident | null> {
  try {
    return await ctx.incidents(event.clientId).incidents.retrieve(incidentId);
  } catch (error) {
    if (isTransientServiceError(error)) throw error;
    // 404 or an unreadable detail: the ticket still opens, with what the event said
    return null;
  }
}

export async function openDetectedTicket(
  deps: ResolvedDeps,
  ctx: AccountContext,
  event: ParsedIncidentEvent & { incidentId: string },
  claim: Claim,
): Promise<number> {
  let ticketId: number;
  let status: string | undefined;
  try {
    const detail = await readDetail(ctx, event, event.incidentId);
    status = detail?.status ?? event.status;
    const threat = detail ? threatValue(detail) : null;
    const body = markNote(
      detail
        ? detectedIncidentNote(detail, event.ref)
        : detectedIncidentFallbackNote(event.incidentId, status, event.ref),
    );
    const customFields = [
      { id: ctx.fields.incidentId, value: event.incidentId },
      ...(threat === null ? [] : [{ id: ctx.fields.threat, value: threat }]),
      ...(status !== undefined && ctx.fields.status !== null
        ? [{ id: ctx.fields.status, value: status }]
        : []),
    ];
    const created = await ctx.zendesk.tickets.create(
      {
        subject: detectedTicketSubject(status, detail ? displayThreat(detail) : GENERIC_THREAT),
        comment: { body, public: false },
        type: 'incident',
        tags: DETECTED_TICKET_TAGS,
        custom_fields: customFields,
        ...(ctx.settings.newTicketGroupId === null
          ? {}
          : { group_id: ctx.settings.newTicketGroupId }),
      },
      { idempotencyKey: `incident-desk:detected:${ctx.accountId}:${event.incidentId}` },
    );
    ticketId = created.ticket.id;
    await deps.db.prisma.ownNote.create({
      data: { accountId: ctx.accountId, ticketId: BigInt(ticketId), text: normalizeText(body) },
    });
  } catch (error) {
    // Nothing was opened (or the create's outcome is unknown, which the recovery search of the
    // retry covers): free the claim so the retry, or another worker, can try again.
    await releaseClaim(deps.db, claim);
    throw error;
  }
  await completeClaim(deps.db, claim, ticketId);
  if (status !== undefined) {
    await advanceTicketOrder(deps.db, ctx.accountId, ticketId, event.occurredAt, status);
  }
  return ticketId;
}

// A new install starts with an empty link table (a Disconnect deletes the account's links) while
// tickets an earlier install linked still carry tag incident_linked and the Incident ID the report
// answered: often an `inc_` reference, where events carry the incident's other id, so the recovery
// search for the event's id cannot find them. The first incident event without a link, once per
// install, links each such ticket again: the service's detail read under the field's value names
// the incident's id, and the link keeps both. Identity comes from the service, never from the text
// of an id. Each adopted ticket's comments so far count as known to the incident (the new install
// has no record of what the old one forwarded), so only later replies are forwarded. Progress is
// the link table itself, so a failed pass resumes where it stopped.
import { querySql } from '@incident-desk/db';
import type { AccountContext } from '../../accounts';
import { saveLinkUnderClaim } from '../incident-link-claim';
import type { ResolvedSyncDeps } from '../sync-deps';
import { TAG_LINKED } from '../../setup';
import { customFieldValue } from '../ticket-events/ticket-values';
import { incidentForms, readDetailOrNull } from './incident-forms';
import { linkedTicketOf, type LinkedTicket } from './incident-link-store';
import { markEarlierCommentsKnown } from './mark-recovered-ticket';

interface Candidate {
  ticketId: number;
  fieldValue: string;
}

// Tickets or ids among the candidates that a link already holds (any form).
const KNOWN_SQL = `
  SELECT ticket_id::text AS "ticketId", incident_id AS "incidentId", report_ref AS "reportRef"
    FROM incident_link
   WHERE account_id = $1::uuid
     AND (ticket_id = ANY($2::bigint[]) OR incident_id = ANY($3::text[]) OR report_ref = ANY($3::text[]))`;

interface KnownRow {
  ticketId: string;
  incidentId: string;
  reportRef: string | null;
}

/** The links this pass saved; none too when the account adopted its tickets before. */
export async function adoptLinkedTickets(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
): Promise<LinkedTicket[]> {
  const account = await deps.db.prisma.account.findUnique({
    where: { id: ctx.accountId },
    select: { linkedTicketsAdoptedAt: true },
  });
  if (!account || account.linkedTicketsAdoptedAt !== null) return [];

  const candidates: Candidate[] = [];
  for await (const ticket of ctx.zendesk.search.ticketsWithTag(TAG_LINKED)) {
    const value = customFieldValue(ticket, ctx.fields.incidentId);
    if (typeof value === 'string' && value !== '' && ticket.status !== 'closed')
      candidates.push({ ticketId: ticket.id, fieldValue: value });
  }
  const adopted: LinkedTicket[] = [];
  for (const candidate of await unlinked(deps, ctx, candidates)) {
    const detail = await readDetailOrNull(ctx, candidate.fieldValue);
    if (detail === null) continue; // the service does not know that id: nothing to link
    const forms = incidentForms(detail.id, candidate.fieldValue);
    // before the link: a link saved with its comments unmarked would not be met again by a retry
    await markEarlierCommentsKnown(
      deps,
      ctx,
      candidate.ticketId,
      forms.incidentId,
      'predates the link of this install',
    );
    const save = await saveLinkUnderClaim(deps.db, {
      accountId: ctx.accountId,
      incidentId: forms.incidentId,
      reportRef: forms.otherForm,
      ticketId: candidate.ticketId,
    });
    // a conflict: the ticket or the incident was linked meanwhile (an event, a report)
    if (save.saved) adopted.push(linkedTicketOf(save.link));
  }
  await deps.db.prisma.account.update({
    where: { id: ctx.accountId },
    data: { linkedTicketsAdoptedAt: deps.now() },
  });
  return adopted;
}

async function unlinked(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  candidates: readonly Candidate[],
): Promise<Candidate[]> {
  if (candidates.length === 0) return [];
  const known = await querySql<KnownRow>(deps.db, KNOWN_SQL, [
    ctx.accountId,
    candidates.map((candidate) => String(candidate.ticketId)),
    candidates.map((candidate) => candidate.fieldValue),
  ]);
  const knownTickets = new Set(known.map((row) => Number(row.ticketId)));
  const knownIds = new Set(known.flatMap((row) => [row.incidentId, row.reportRef ?? '']));
  return candidates.filter(
    (candidate) => !knownTickets.has(candidate.ticketId) && !knownIds.has(candidate.fieldValue),
  );
}

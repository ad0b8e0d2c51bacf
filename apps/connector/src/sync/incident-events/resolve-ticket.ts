// Incident -> ticket correlation: the link table only (by any known id of the incident: the one
// the detail names, or its other form). For an unlinked incident: wait, recheck, recovery search
// for each known id, once per install the tickets an earlier install linked, wait for a report under
// way that may have created it, and only then open a ticket when the account wants that. Never by
// URL, domain, email or time. Every wait is a deferral: the job goes back to the queue and looks
// again, its worker slot free meanwhile.
import type { AccountContext } from '../../accounts/account-context';
import { JobDeferral } from '../../jobs/job-deferral';
import type { ResolvedSyncDeps } from '../sync-deps';
import {
  claimIncident,
  completeClaim,
  findLink,
  takeOverClaim,
  type LinkedTicket,
  type LinkLookup,
} from './incident-link-store';
import { saveLinkUnderClaim } from '../incident-link-claim';
import { markRecoveredTicketLinked } from './mark-recovered-ticket';
import { openDetectedTicket } from './open-detected-ticket';
import type { IncidentEvent } from './incident-event';
import { findTicketByIncidentField } from './recovery-search';
import { adoptLinkedTickets } from './adopt-linked-tickets';
import { incidentForms, readDetailOrNull } from './incident-forms';
import { lookupAfterReportsInFlight } from './report-in-flight';

export type TicketResolution =
  | { kind: 'linked'; link: LinkedTicket }
  | { kind: 'opened'; ticketId: number }
  | { kind: 'ignored' };

/** Thrown (a deferral: the job looks again later) while another job may still link or open the incident's ticket. */
export class IncidentTicketPendingError extends JobDeferral {
  override name = 'IncidentTicketPendingError';
}

export async function resolveTicket(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: IncidentEvent,
): Promise<TicketResolution> {
  const first = await findLink(deps.db, ctx.accountId, event.incidentId);
  if (first.state !== 'none') return settle(deps, ctx, event, first);
  const waited = deps.now().getTime() - (event.receivedAt ?? deps.now()).getTime();
  if (event.receivedAt !== undefined && waited < deps.unlinkedWaitMs) {
    throw new IncidentTicketPendingError(
      deps.unlinkedWaitMs - waited,
      `incident ${event.incidentId} is not linked yet: a report may still be saving its link`,
    );
  }

  // The detail names the incident by the id its ticket may hold instead of the event's; a ticket
  // opened for it below is built from the same read.
  const detail = await readDetailOrNull(ctx, event.incidentId, event.clientId);
  const recovered = await findTicketByIncidentField(ctx, [
    event.incidentId,
    ...(detail ? [detail.id] : []),
  ]);
  if (recovered !== null) {
    const forms = incidentForms(detail?.id ?? null, recovered.fieldValue, event.incidentId);
    const save = await saveLinkUnderClaim(deps.db, {
      accountId: ctx.accountId,
      incidentId: forms.incidentId,
      ticketId: recovered.ticketId,
      reportRef: forms.otherForm,
    });
    if (save.saved)
      await markOrForget(deps, ctx, recovered.ticketId, forms.incidentId, save.link.id);
    const saved = await findLink(deps.db, ctx.accountId, event.incidentId);
    if (saved.state !== 'none') return settle(deps, ctx, event, saved);
  } else if (await adoptLinkedTickets(deps, ctx)) {
    const adopted = await findLink(deps.db, ctx.accountId, event.incidentId);
    if (adopted.state !== 'none') return settle(deps, ctx, event, adopted);
  }
  const afterReports = await lookupAfterReportsInFlight(deps, ctx, event.incidentId);
  if (afterReports.state === 'report_pending') {
    throw new IncidentTicketPendingError(
      deps.pollIntervalMs,
      `the report of ticket ${afterReports.ticketId} may have created incident ${event.incidentId} and is still under way`,
    );
  }
  if (afterReports.state !== 'none') return settle(deps, ctx, event, afterReports);
  if (!ctx.settings.openTicketsForDetectedIncidents) return { kind: 'ignored' };

  const claim = await claimIncident(deps.db, ctx.accountId, event.incidentId, deps.now());
  if (claim === null) {
    return settle(deps, ctx, event, await findLink(deps.db, ctx.accountId, event.incidentId));
  }
  return { kind: 'opened', ticketId: await openDetectedTicket(deps, ctx, event, claim, detail) };
}

/**
 * Marks a recovered ticket linked. Unmarked (a failure, or a write put off by the account's
 * budget), the ticket would stay linked without its tag: the link is forgotten, so the retry
 * recovers and marks it again.
 */
async function markOrForget(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  ticketId: number,
  incidentId: string,
  linkId: string,
): Promise<void> {
  try {
    await markRecoveredTicketLinked(deps, ctx, ticketId, incidentId);
  } catch (error) {
    await deps.db.prisma.incidentLink.deleteMany({ where: { id: linkId } });
    throw error;
  }
}

async function settle(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: IncidentEvent,
  lookup: LinkLookup,
): Promise<TicketResolution> {
  if (lookup.state === 'linked') return { kind: 'linked', link: lookup.link };
  if (lookup.state === 'none')
    throw new IncidentTicketPendingError(
      0,
      `the claim on incident ${event.incidentId} was released; look again`,
    );
  const current = lookup;
  if (deps.now().getTime() - current.claimedAt.getTime() < deps.claimStaleMs) {
    throw new IncidentTicketPendingError(
      deps.pollIntervalMs,
      `another worker is opening the ticket of incident ${event.incidentId}`,
    );
  }

  // The claiming worker stopped. It may have opened the ticket before it died: search first.
  const claim = await takeOverClaim(deps.db, current.claim, deps.now());
  if (claim === null)
    throw new IncidentTicketPendingError(
      0,
      `the claim on incident ${event.incidentId} changed; look again`,
    );
  const recovered = await findTicketByIncidentField(ctx, [event.incidentId]);
  if (recovered !== null) {
    const linkId = await completeClaim(deps.db, claim, recovered.ticketId);
    await markOrForget(deps, ctx, recovered.ticketId, event.incidentId, linkId);
    return settle(deps, ctx, event, await findLink(deps.db, ctx.accountId, event.incidentId));
  }
  return { kind: 'opened', ticketId: await openDetectedTicket(deps, ctx, event, claim) };
}

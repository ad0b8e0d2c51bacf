// Incident -> ticket correlation: the link table only (by any known id of the incident: the one
// the detail names, or its other form). For an unlinked incident: wait, recheck, recovery search
// for each known id, once per install the tickets an earlier install linked, wait for a report under
// way that may have created it, and only then open a ticket when the account wants that. Never by
// URL, domain, email or time. Every wait is a deferral: the job goes back to the queue and looks
// again, its worker slot free meanwhile.
// One run reads the link once, first; each later stage goes on from what its own step returned (a
// link saved, adopted or completed is known without reading it back). The link table is looked at
// again only where another worker may just have linked the incident: right after this run takes
// the claim to open a ticket (claimIncident), and before it gives up on an unlinked incident.
import type { AccountContext } from '../../accounts';
import { JobDeferral } from '../../jobs';
import type { ResolvedSyncDeps } from '../sync-deps';
import {
  claimIncident,
  completeClaim,
  findLink,
  linkedTicketOf,
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
import { findReportUnderWay } from './report-in-flight';

export type TicketResolution =
  | { kind: 'linked'; link: LinkedTicket }
  /** The link of the ticket this run opened. */
  | { kind: 'opened'; link: LinkedTicket }
  | { kind: 'ignored' };

/** Thrown (a deferral: the job looks again later) while another job may still link or open the incident's ticket. */
class IncidentTicketPendingError extends JobDeferral {
  override name = 'IncidentTicketPendingError';
}

export async function resolveTicket(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: IncidentEvent,
): Promise<TicketResolution> {
  // the run's one read of the link
  const lookup = await findLink(deps.db, ctx.accountId, event.incidentId);
  if (lookup.state === 'none') return resolveUnlinked(deps, ctx, event);
  return settle(deps, ctx, event, lookup);
}

async function resolveUnlinked(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: IncidentEvent,
): Promise<TicketResolution> {
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
    if (save.saved) {
      await markOrForget(deps, ctx, recovered.ticketId, forms.incidentId, save.link.id);
      return { kind: 'linked', link: linkedTicketOf(save.link) };
    }
    if (save.reason === 'claimed') throw openingElsewhere(deps, event);
    // a conflict: the incident was linked meanwhile (the claim below finds it), or the ticket
    // found is another incident's
  } else {
    const adopted = (await adoptLinkedTickets(deps, ctx)).find((link) =>
      [link.incidentId, link.reportRef].includes(event.incidentId),
    );
    if (adopted) return { kind: 'linked', link: adopted };
  }
  const underWay = await findReportUnderWay(deps, ctx, event.incidentId);
  if (underWay !== null) {
    throw new IncidentTicketPendingError(
      deps.pollIntervalMs,
      `the report of ticket ${underWay.ticketId} may have created incident ${event.incidentId} and is still under way`,
    );
  }
  if (!ctx.settings.openTicketsForDetectedIncidents) return lastLook(deps, ctx, event);

  const claim = await claimIncident(deps.db, ctx.accountId, event.incidentId, deps.now());
  if (claim.state === 'held') throw openingElsewhere(deps, event);
  if (claim.state === 'linked') return { kind: 'linked', link: claim.link };
  return { kind: 'opened', link: await openDetectedTicket(deps, ctx, event, claim.claim, detail) };
}

/**
 * No ticket will be opened: a report that ended since this run first looked (it linked the
 * incident, then left the reports under way) is found by looking once more before giving up.
 */
async function lastLook(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: IncidentEvent,
): Promise<TicketResolution> {
  const lookup = await findLink(deps.db, ctx.accountId, event.incidentId);
  return lookup.state === 'none' ? { kind: 'ignored' } : settle(deps, ctx, event, lookup);
}

function openingElsewhere(deps: ResolvedSyncDeps, event: IncidentEvent) {
  return new IncidentTicketPendingError(
    deps.pollIntervalMs,
    `another worker is opening the ticket of incident ${event.incidentId}`,
  );
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

/** A link found, or another worker's claim: fresh, the job waits; stale, this run takes it over. */
async function settle(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: IncidentEvent,
  lookup: Exclude<LinkLookup, { state: 'none' }>,
): Promise<TicketResolution> {
  if (lookup.state === 'linked') return { kind: 'linked', link: lookup.link };
  if (deps.now().getTime() - lookup.claimedAt.getTime() < deps.claimStaleMs)
    throw openingElsewhere(deps, event);

  // The claiming worker stopped. It may have opened the ticket before it died: search first.
  const claim = await takeOverClaim(deps.db, lookup.claim, deps.now());
  if (claim === null)
    throw new IncidentTicketPendingError(
      0,
      `the claim on incident ${event.incidentId} changed; look again`,
    );
  const recovered = await findTicketByIncidentField(ctx, [event.incidentId]);
  if (recovered !== null) {
    const linkId = await completeClaim(deps.db, claim, recovered.ticketId);
    await markOrForget(deps, ctx, recovered.ticketId, event.incidentId, linkId);
    // the link as completeClaim saved it (the claimed id alone)
    const link = { linkId, ticketId: recovered.ticketId, incidentId: claim.incidentId };
    return { kind: 'linked', link: { ...link, reportRef: null } };
  }
  return { kind: 'opened', link: await openDetectedTicket(deps, ctx, event, claim) };
}

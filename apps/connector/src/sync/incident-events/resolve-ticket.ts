// Incident -> ticket correlation: the link table only (by the id events carry, or the report
// reference). For an unlinked incident: wait, recheck, recovery search, wait for a report under
// way that may have created it, and only then open a ticket when the account wants that. Never by
// URL, domain, email or time.
import type { AccountContext } from '../../accounts/account-context';
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
import type { ParsedIncidentEvent } from './parse-incident-event';
import { findTicketByIncidentField } from './recovery-search';
import { waitForReportInFlight } from './report-in-flight';

export type TicketResolution =
  | { kind: 'linked'; link: LinkedTicket }
  | { kind: 'opened'; ticketId: number }
  | { kind: 'ignored' };

/** Thrown (as a transient failure) while another worker still opens the incident's ticket. */
export class IncidentTicketPendingError extends Error {
  override name = 'IncidentTicketPendingError';
}

type Event = ParsedIncidentEvent & { incidentId: string };

export async function resolveTicket(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: Event,
): Promise<TicketResolution> {
  const first = await findLink(deps.db, ctx.accountId, event.incidentId);
  if (first.state !== 'none') return settle(deps, ctx, event, first);

  await deps.sleep(deps.unlinkedWaitMs);
  const second = await findLink(deps.db, ctx.accountId, event.incidentId);
  if (second.state !== 'none') return settle(deps, ctx, event, second);

  const recovered = await findTicketByIncidentField(ctx, event.incidentId);
  if (recovered !== null) {
    const save = await saveLinkUnderClaim(deps.db, {
      accountId: ctx.accountId,
      incidentId: event.incidentId,
      ticketId: recovered,
      reportRef: null,
    });
    if (save.saved) await markOrForget(deps, ctx, recovered, event.incidentId, save.link.id);
    const saved = await findLink(deps.db, ctx.accountId, event.incidentId);
    if (saved.state !== 'none') return settle(deps, ctx, event, saved);
  }
  const afterReports = await waitForReportInFlight(deps, ctx, event.incidentId);
  if (afterReports.state === 'report_pending') {
    throw new IncidentTicketPendingError(
      `the report of ticket ${afterReports.ticketId} may have created incident ${event.incidentId} and is still under way`,
    );
  }
  if (afterReports.state !== 'none') return settle(deps, ctx, event, afterReports);
  if (!ctx.settings.openTicketsForDetectedIncidents) return { kind: 'ignored' };

  const claim = await claimIncident(deps.db, ctx.accountId, event.incidentId, deps.now());
  if (claim === null) {
    return settle(deps, ctx, event, await findLink(deps.db, ctx.accountId, event.incidentId));
  }
  return { kind: 'opened', ticketId: await openDetectedTicket(deps, ctx, event, claim) };
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
  event: Event,
  lookup: LinkLookup,
): Promise<TicketResolution> {
  if (lookup.state === 'linked') return { kind: 'linked', link: lookup.link };
  if (lookup.state === 'none')
    throw new IncidentTicketPendingError(
      `the claim on incident ${event.incidentId} was released; retry`,
    );

  const deadline = deps.now().getTime() + deps.claimWaitMs;
  let current: LinkLookup = lookup;
  while (current.state === 'claimed' && deps.now().getTime() < deadline) {
    await deps.sleep(deps.pollIntervalMs);
    current = await findLink(deps.db, ctx.accountId, event.incidentId);
  }
  if (current.state === 'linked') return { kind: 'linked', link: current.link };
  if (current.state === 'none')
    throw new IncidentTicketPendingError(
      `the claim on incident ${event.incidentId} was released; retry`,
    );
  if (deps.now().getTime() - current.claimedAt.getTime() < deps.claimStaleMs) {
    throw new IncidentTicketPendingError(
      `another worker is opening the ticket of incident ${event.incidentId}`,
    );
  }

  // The claiming worker stopped. It may have opened the ticket before it died: search first.
  const claim = await takeOverClaim(deps.db, current.claim, deps.now());
  if (claim === null)
    throw new IncidentTicketPendingError(
      `the claim on incident ${event.incidentId} changed; retry`,
    );
  const recovered = await findTicketByIncidentField(ctx, event.incidentId);
  if (recovered !== null) {
    const linkId = await completeClaim(deps.db, claim, recovered);
    await markOrForget(deps, ctx, recovered, event.incidentId, linkId);
    return settle(deps, ctx, event, await findLink(deps.db, ctx.accountId, event.incidentId));
  }
  return { kind: 'opened', ticketId: await openDetectedTicket(deps, ctx, event, claim) };
}

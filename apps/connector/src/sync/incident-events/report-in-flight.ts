// Events follow processing (contract, Events rule 4): incident.created for what a ticket just
// reported can arrive before the report has saved its link, and with a slow service well after the
// brief wait. A report under way is known by its ReportAttempt row (state `sending`, written before
// the POST): with the reference the service answered, the incident's detail tells whether it is
// this incident; without one the POST is still out and it may be. Either way no ticket is opened
// for the incident until that report has linked it or ended.
import type { AccountContext } from '../../accounts/account-context';
import type { ResolvedSyncDeps } from '../sync-deps';
import { findLink, type LinkLookup } from './incident-link-store';
import { isTransientFailure } from '../../http/service-failure';

interface ReportUnderWay {
  attemptId: string;
  ticketId: number;
  reportRef: string | null;
}

export type ReportWait = LinkLookup | { state: 'report_pending'; ticketId: number };

/**
 * Waits (up to claimWaitMs) while a report that may have created the incident is under way.
 * Returns the link lookup once no such report is pending, or `report_pending` when one still is.
 */
export async function waitForReportInFlight(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  incidentId: string,
): Promise<ReportWait> {
  const deadline = deps.now().getTime() + deps.claimWaitMs;
  for (;;) {
    const pending = await findReportUnderWay(deps, ctx, incidentId);
    if (pending === null) return findLink(deps.db, ctx.accountId, incidentId);
    for (;;) {
      const lookup = await findLink(deps.db, ctx.accountId, incidentId);
      if (lookup.state !== 'none') return lookup;
      if (deps.now().getTime() >= deadline)
        return { state: 'report_pending', ticketId: pending.ticketId };
      await deps.sleep(deps.pollIntervalMs);
      const row = await deps.db.prisma.reportAttempt.findUnique({
        where: { id: pending.attemptId },
        select: { state: true, incidentId: true },
      });
      // the report moved on (linked, failed, got its reference): decide again
      if (row === null || row.state !== 'sending' || row.incidentId !== pending.reportRef) break;
    }
  }
}

async function findReportUnderWay(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  incidentId: string,
): Promise<ReportUnderWay | null> {
  const attempts = await deps.db.prisma.reportAttempt.findMany({
    where: {
      accountId: ctx.accountId,
      state: 'sending',
      startedAt: { gte: new Date(deps.now().getTime() - deps.reportInFlightMs) },
    },
    select: { id: true, ticketId: true, incidentId: true },
    orderBy: { startedAt: 'asc' },
  });
  for (const attempt of attempts) {
    const underWay = {
      attemptId: attempt.id,
      ticketId: Number(attempt.ticketId),
      reportRef: attempt.incidentId,
    };
    if (attempt.incidentId === null || attempt.incidentId === incidentId) return underWay;
    if (await isSameIncident(ctx, attempt.incidentId, incidentId)) return underWay;
  }
  return null;
}

/** Both identifiers name one incident when the service's detail of the reference says so. */
async function isSameIncident(
  ctx: AccountContext,
  reportRef: string,
  incidentId: string,
): Promise<boolean> {
  try {
    return (await ctx.incidents().incidents.retrieve(reportRef)).id === incidentId;
  } catch (error) {
    if (isTransientFailure(error)) throw error;
    return false;
  }
}

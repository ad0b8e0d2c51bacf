// Events follow processing (contract, Events rule 4): incident.created for what a ticket just
// reported can arrive before the report has saved its link, and with a slow service well after the
// brief wait. A report under way is known by its ReportAttempt row (state `sending`, written before
// the POST): with the reference the service answered, the incident's detail tells whether it is
// this incident; without one the POST is still out and it may be. Either way no ticket is opened
// for the incident until that report has linked it or ended: the event's job is deferred meanwhile.
import type { AccountContext } from '../../accounts';
import type { ResolvedSyncDeps } from '../sync-deps';
import { isTransientFailure } from '../service-failure';

export interface ReportUnderWay {
  ticketId: number;
}

/** A report under way that may have created the incident (its ticket), or null. */
export async function findReportUnderWay(
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
    select: { ticketId: true, incidentId: true },
    orderBy: { startedAt: 'asc' },
  });
  for (const attempt of attempts) {
    const underWay = { ticketId: Number(attempt.ticketId) };
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

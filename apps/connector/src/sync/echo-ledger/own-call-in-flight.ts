// The service emits incident.history_created at once: its job can run while the call that caused
// it is still under way (its ledger entry unsettled, not older than ownCallInFlightMs). An entry not
// yet recognised as the connector's own is then not shown: the job is deferred (handed back, never
// sleeping in its slot) until the call has settled, and decides then. A caller that dies leaves
// its entry unsettled; it stops counting after OWN_CALL_IN_FLIGHT_MS.
import { JobDeferral } from '../../jobs/job-deferral';
import type { ResolvedSyncDeps } from '../sync-deps';

/** Thrown (a deferral: the job looks again later) while an own call to the incident is under way. */
export class OwnIncidentCallPendingError extends JobDeferral {
  override name = 'OwnIncidentCallPendingError';
}

/** Defers the job while an own call to one of these incident ids is under way. */
export async function deferWhileOwnCallsInFlight(
  deps: ResolvedSyncDeps,
  accountId: string,
  incidentIds: readonly string[],
): Promise<void> {
  const call = await deps.db.prisma.echoLedgerEntry.findFirst({
    where: {
      accountId,
      target: { in: [...incidentIds] },
      kind: { in: ['incident_action', 'incident_comment'] },
      settledAt: null,
      sentAt: { gte: new Date(deps.now().getTime() - deps.ownCallInFlightMs) },
    },
    select: { id: true },
  });
  if (call !== null) {
    throw new OwnIncidentCallPendingError(
      deps.pollIntervalMs,
      `a call the connector made to incident ${incidentIds.join(' / ')} is still under way; ` +
        'its history entries are not yet known',
    );
  }
}

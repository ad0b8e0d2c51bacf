// The connector's own calls to an incident (sync/own-incident-history.ts) record the history
// entries they produced only after the service has answered and the history has been read again,
// but the service emits incident.history_created at once: its job can run in between, on any
// process. While such a call is under way (its OwnIncidentCall row, not older than
// ownCallInFlightMs), an entry not yet known as the connector's own is not shown: the job is
// deferred until the call has settled, and decides then with what it recorded.
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
  const call = await deps.db.prisma.ownIncidentCall.findFirst({
    where: {
      accountId,
      incidentId: { in: [...incidentIds] },
      startedAt: { gte: new Date(deps.now().getTime() - deps.ownCallInFlightMs) },
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

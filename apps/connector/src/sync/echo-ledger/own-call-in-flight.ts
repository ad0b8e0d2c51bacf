// The service emits incident.history_created at once: its job can run while the call that caused
// it is still under way (its ledger entry unsettled, not older than ownCallInFlightMs). An entry not
// yet recognised as the connector's own is then not shown: the job is deferred (handed back, never
// sleeping in its slot) until the call has settled, and decides then. A caller that dies leaves
// its entry unsettled; it stops counting after OWN_CALL_IN_FLIGHT_MS.
import { JobDeferral } from '../../jobs';
import type { ResolvedSyncDeps } from '../sync-deps';

/** Thrown (a deferral: the job looks again later) while an own call to the incident is under way. */
export class OwnIncidentCallPendingError extends JobDeferral {
  override name = 'OwnIncidentCallPendingError';
}

/** The ledger rows a call in flight is judged by. */
export interface CallRow {
  kind: string;
  sentAt: Date;
  settledAt: Date | null;
}

/**
 * Defers the job while an own call to the incident is under way: an unsettled action or comment of
 * the ledger's snapshot, sent within ownCallInFlightMs.
 */
export function deferWhileOwnCallsInFlight(
  deps: ResolvedSyncDeps,
  rows: readonly CallRow[],
  incidentIds: readonly string[],
): void {
  const since = deps.now().getTime() - deps.ownCallInFlightMs;
  const inFlight = rows.some(
    (row) =>
      (row.kind === 'incident_action' || row.kind === 'incident_comment') &&
      row.settledAt === null &&
      row.sentAt.getTime() >= since,
  );
  if (inFlight) {
    throw new OwnIncidentCallPendingError(
      deps.pollIntervalMs,
      `a call the connector made to incident ${incidentIds.join(' / ')} is still under way; ` +
        'its history entries are not yet known',
    );
  }
}

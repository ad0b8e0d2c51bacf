// The connector's own calls to an incident (sync/own-incident-history.ts) record the history
// entries they produced only after the service has answered and the history has been read again,
// but the service emits incident.history_created at once: its job can run in between, on any
// process. While such a call is under way (its OwnIncidentCall row, not older than
// ownCallInFlightMs), an entry not yet known as the connector's own is not shown: the handler
// waits for the call to settle and decides with what it recorded.
import type { ResolvedSyncDeps } from '../sync-deps';

/** Thrown (as a transient failure) while an own call to the incident is still under way. */
export class OwnIncidentCallPendingError extends Error {
  override name = 'OwnIncidentCallPendingError';
}

/**
 * Waits (up to claimWaitMs) while an own call to one of these incident ids is under way.
 * Returns whether there was one (what it recorded is then worth reading again); throws
 * OwnIncidentCallPendingError when one still is.
 */
export async function waitForOwnCallsInFlight(
  deps: ResolvedSyncDeps,
  accountId: string,
  incidentIds: readonly string[],
): Promise<boolean> {
  const deadline = deps.now().getTime() + deps.claimWaitMs;
  if (!(await hasOwnCallInFlight(deps, accountId, incidentIds))) return false;
  for (;;) {
    if (deps.now().getTime() >= deadline) {
      throw new OwnIncidentCallPendingError(
        `a call the connector made to incident ${incidentIds.join(' / ')} is still under way; ` +
          'its history entries are not yet known',
      );
    }
    await deps.sleep(deps.pollIntervalMs);
    if (!(await hasOwnCallInFlight(deps, accountId, incidentIds))) return true;
  }
}

async function hasOwnCallInFlight(
  deps: ResolvedSyncDeps,
  accountId: string,
  incidentIds: readonly string[],
): Promise<boolean> {
  const call = await deps.db.prisma.ownIncidentCall.findFirst({
    where: {
      accountId,
      incidentId: { in: [...incidentIds] },
      startedAt: { gte: new Date(deps.now().getTime() - deps.ownCallInFlightMs) },
    },
    select: { id: true },
  });
  return call !== null;
}

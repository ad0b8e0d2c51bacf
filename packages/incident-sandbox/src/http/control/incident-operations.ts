import type { z } from 'zod';
import { addHistory } from '../../domain/history';
import { sortAttemptsOldestFirst } from '../../domain/takedown-attempts';
import { ANALYST_TRANSITIONS, changeStatus, TransitionError } from '../../domain/transitions';
import type { IncidentRecord, SnapshotRecord } from '../../state/model';
import type { SandboxContext } from '../context';
import { HttpError, notFound } from '../errors';
import type { ZAdvance, ZAttempt, ZBlocklist, ZHistoryMessage, ZSnapshot } from './schemas';

// What an analyst does to an incident, shared by the JSON control API and the analyst console.

type TDeps = Pick<SandboxContext, 'store' | 'dispatcher'>;

export function findIncidentForControl({ store }: TDeps, idOrRef: string): IncidentRecord {
  const found = store.state.incidents.find((i) => i.id === idOrRef || i.ref === idOrRef);
  if (!found) throw notFound();
  return found;
}

/** Moves the incident along the analyst graph; a move an analyst would not make is a 409 naming the allowed ones. */
export function advanceIncident(
  { store, dispatcher }: TDeps,
  target: IncidentRecord,
  body: z.infer<typeof ZAdvance>,
): void {
  try {
    changeStatus(
      target,
      {
        to: body.status,
        now: store.now(),
        message: body.message,
        waitForClient: body.waitForClient,
        author: { type: 'analyst', name: body.analyst ?? 'Sandbox Analyst' },
        force: body.force,
      },
      dispatcher,
    );
  } catch (err) {
    if (err instanceof TransitionError)
      throw new HttpError(
        409,
        err.message,
        {},
        { allowedNextStatuses: [...ANALYST_TRANSITIONS[target.status]] },
      );
    throw err;
  }
  if (body.snapshot && !['email', 'phone', 'ipv4'].includes(target.incidentType)) {
    target.snapshots.unshift({
      id: store.newId('snapshot', 'snap_', 16),
      incidentId: target.id,
      type: 'incident_status_updated',
      timestamp: store.now(),
      description: `Capture after moving to ${body.status}`,
    });
  }
  store.changed();
}

/** An analyst's history message, without a status change (emits incident.history_created). */
export function addHistoryMessage(
  { store, dispatcher }: TDeps,
  target: IncidentRecord,
  body: z.infer<typeof ZHistoryMessage>,
): void {
  addHistory(
    target,
    {
      timestamp: store.now(),
      message: body.message,
      author: { type: 'analyst', name: body.analyst ?? 'Sandbox Analyst' },
    },
    dispatcher,
  );
  target.lastHistoryUpdateTimestamp = store.now();
  store.changed();
}

export function addBlocklistListing(
  { store, dispatcher }: TDeps,
  target: IncidentRecord,
  body: z.infer<typeof ZBlocklist>,
): void {
  target.blocklists.push({
    authority: body.authority,
    type: body.type,
    status: body.status,
    listedAt: body.listedAt ?? (body.status === 'listed' ? store.now() : null),
    link: body.link ?? null,
  });
  if (body.type === 'warning-banner' && body.status === 'listed')
    target.incidentState = { ...target.incidentState, warningBanner: true };
  addHistory(
    target,
    { timestamp: store.now(), message: `Submitted to ${body.authority}` },
    dispatcher,
  );
  store.changed();
}

export function addSnapshot(
  { store }: TDeps,
  target: IncidentRecord,
  body: z.infer<typeof ZSnapshot>,
): SnapshotRecord {
  const snapshot = {
    id: store.newId('snapshot', 'snap_', 16),
    incidentId: target.id,
    type: body.type ?? 'incident_status_updated',
    timestamp: body.timestamp ?? store.now(),
    description: body.description ?? 'Sandbox capture',
    dns: body.dns,
    whois: body.whois,
    certificate: body.certificate,
    insights: body.insights,
  };
  target.snapshots.push(snapshot);
  target.snapshots.sort((a, b) =>
    a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0,
  );
  store.changed();
  return snapshot;
}

export function addTakedownAttempt(
  { store, dispatcher }: TDeps,
  target: IncidentRecord,
  body: z.infer<typeof ZAttempt>,
): void {
  target.takedownAttempts.push({
    startedAt: body.startedAt,
    resolvedAt: body.resolvedAt ?? null,
    outcome: body.outcome ?? null,
    recordedAt: store.now(),
  });
  // Recorded in any order; kept oldest first as the spec lists them, so reinitiatedAfter follows time.
  sortAttemptsOldestFirst(target.takedownAttempts);
  dispatcher.emit({
    event: 'incident.takedown_updated',
    clientId: target.clientId,
    incidentId: target.id,
    data: { incidentId: target.id },
  });
  store.changed();
}

import type { IncidentRecord } from '../state/model';
import type { EventSink } from './events';
import { addHistory } from './history';
import type { TStatus } from './statuses';

/** Moves an analyst may make (the spec shows only approval; this graph is the sandbox's own model). */
export const ANALYST_TRANSITIONS: Record<TStatus, readonly TStatus[]> = {
  pending_review: ['case_building', 'pre_weaponised', 'blocklisted', 'action_required', 'closed'],
  case_building: [
    'approval_required',
    'takedown_ready',
    'takedown_in_progress',
    'pre_weaponised',
    'blocklisted',
    'action_required',
    'closed',
  ],
  approval_required: ['takedown_ready', 'action_required', 'closed'],
  takedown_ready: ['takedown_in_progress', 'closed'],
  pre_weaponised: ['case_building', 'approval_required', 'takedown_in_progress', 'closed'],
  takedown_in_progress: [
    'takedown_success',
    'takedown_attempt_failed',
    'blocklisted',
    'action_required',
    'closed',
  ],
  takedown_success: ['takedown_in_progress', 'closed'],
  takedown_attempt_failed: ['takedown_in_progress', 'blocklisted', 'action_required', 'closed'],
  blocklisted: ['takedown_in_progress', 'closed'],
  action_required: ['case_building', 'approval_required', 'takedown_in_progress', 'closed'],
  closed: ['case_building'],
};

const DEFAULT_MESSAGES: Record<TStatus, string> = {
  pending_review: 'Incident reported and awaiting review',
  case_building: 'Analyst is building the case',
  approval_required: 'Takedown requires your approval',
  takedown_ready: 'Takedown approved and ready to start',
  pre_weaponised: 'Incident placed into monitoring',
  takedown_in_progress: 'Takedown initiated',
  takedown_success: 'Takedown completed successfully',
  takedown_attempt_failed: 'Takedown attempt failed',
  blocklisted: 'Subject blocklisted with partners',
  action_required: 'Waiting for action from you',
  closed: 'Incident closed',
};

export class TransitionError extends Error {}

export interface StatusChange {
  to: TStatus;
  now: string;
  message?: string;
  author?: NonNullable<IncidentRecord['history'][number]['author']>;
  /** What the client must do; carried by incident.action_required when present. */
  waitForClient?: string;
  /** Skip the analyst graph (used by the API's own transitions such as approval and mark safe). */
  force?: boolean;
}

function openAttempt(incident: IncidentRecord) {
  const last = incident.takedownAttempts[incident.takedownAttempts.length - 1];
  return last && last.resolvedAt === null && last.outcome === null ? last : undefined;
}

/** Applies a status change with the side effects the real service shows: history, attempts, events. */
export function changeStatus(
  incident: IncidentRecord,
  change: StatusChange,
  sink: EventSink,
): void {
  const from = incident.status;
  if (!change.force && !ANALYST_TRANSITIONS[from].includes(change.to)) {
    throw new TransitionError(
      `Cannot move incident from ${from} to ${change.to}; allowed next statuses: ${ANALYST_TRANSITIONS[from].join(', ')}`,
    );
  }
  const { now, to } = change;
  let takedownChanged = false;

  if (to === 'takedown_in_progress') {
    // A new attempt starts; an attempt still open stays open, which reads as "restarted before finishing".
    incident.takedownAttempts.push({
      startedAt: now,
      resolvedAt: null,
      outcome: null,
      recordedAt: now,
    });
    incident.burnStartedTimestamp ??= now;
    takedownChanged = true;
  } else {
    const open = openAttempt(incident);
    const outcome =
      to === 'takedown_success'
        ? 'success'
        : to === 'takedown_attempt_failed'
          ? 'failed'
          : to === 'closed' || to === 'blocklisted'
            ? 'closed'
            : undefined;
    if (open && outcome) {
      open.resolvedAt = now;
      open.outcome = outcome;
      takedownChanged = true;
    }
  }
  if (to === 'takedown_success') {
    incident.takedownTimestamp = now;
    incident.incidentState = {
      ...incident.incidentState,
      contentRemoved: true,
      responsive: false,
      timestamp: now,
    };
  }

  incident.status = to;
  incident.lastHistoryUpdateTimestamp = now;
  sink.emit({
    event: 'incident.status_changed',
    clientId: incident.clientId,
    incidentId: incident.id,
    data: { incidentId: incident.id, status: to },
    optional: { previousStatus: from },
  });
  addHistory(
    incident,
    { timestamp: now, message: change.message ?? DEFAULT_MESSAGES[to], author: change.author },
    sink,
  );
  if (takedownChanged) {
    sink.emit({
      event: 'incident.takedown_updated',
      clientId: incident.clientId,
      incidentId: incident.id,
      data: { incidentId: incident.id },
      optional: { status: to },
    });
  }
  if (to === 'action_required') {
    sink.emit({
      event: 'incident.action_required',
      clientId: incident.clientId,
      incidentId: incident.id,
      data: { incidentId: incident.id },
      optional: change.waitForClient ? { waitForClient: change.waitForClient } : undefined,
    });
  }
}

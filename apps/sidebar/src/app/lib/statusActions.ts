import type { TRequestedAction } from '@incident-desk/sidebar-contract';
import { INCIDENT_STATUSES } from '../api/incidentTypes';

/** Who acts next, which the status tag's colour says. */
export type TActor = 'needs_you' | 'in_progress' | 'done' | 'failed' | 'closed';

export type TIncidentActionId = 'approve' | 'takedown' | 'monitor' | 'safe';

export interface StatusPlan {
  /** Whether the status is one the app knows; an unknown one offers no action. */
  known: boolean;
  actor: TActor;
  /** The one action that fits the status, shown on the card; null when the agent need not act. */
  primary: TIncidentActionId | null;
  /** The other actions that still apply, under "More actions". */
  more: TIncidentActionId[];
}

export type TKnownStatus = (typeof INCIDENT_STATUSES)[number];

const PLANS: Record<TKnownStatus, Omit<StatusPlan, 'known'>> = {
  pending_review: { actor: 'in_progress', primary: null, more: ['takedown', 'monitor', 'safe'] },
  case_building: { actor: 'in_progress', primary: null, more: ['monitor', 'safe'] },
  approval_required: { actor: 'needs_you', primary: 'approve', more: ['monitor', 'safe'] },
  takedown_ready: { actor: 'in_progress', primary: null, more: [] },
  // monitoring: the threat may be escalated to a takedown, never moved to monitoring again
  pre_weaponised: { actor: 'in_progress', primary: null, more: ['takedown', 'safe'] },
  takedown_in_progress: { actor: 'in_progress', primary: null, more: [] },
  takedown_success: { actor: 'done', primary: null, more: [] },
  takedown_attempt_failed: {
    actor: 'failed',
    primary: null,
    more: ['takedown', 'monitor', 'safe'],
  },
  blocklisted: { actor: 'done', primary: null, more: ['takedown', 'safe'] },
  // the answer is a reply on the ticket, which the connector forwards; no button answers it
  action_required: { actor: 'needs_you', primary: null, more: ['monitor', 'safe'] },
  closed: { actor: 'closed', primary: null, more: [] },
};

/** The statuses that mean the service has done what was asked: the request is no longer pending. */
const DONE_WHEN: Record<TIncidentActionId, readonly string[]> = {
  approve: ['takedown_ready', 'takedown_in_progress', 'takedown_success'],
  takedown: ['takedown_ready', 'takedown_in_progress', 'takedown_success'],
  monitor: ['pre_weaponised'],
  safe: ['closed'],
};

/**
 * The action an agent asked for that the service has not acted on yet: the incident still has the
 * status it had right after the request, and that status is not the action's outcome. Not offered
 * again until the status changes.
 */
export function pendingRequest(
  status: string,
  requested: TRequestedAction | null,
): Exclude<TIncidentActionId, 'approve'> | null {
  if (!requested || requested.status !== status) return null;
  return DONE_WHEN[requested.action].includes(status) ? null : requested.action;
}

/** Closed because an agent marked it safe (the status alone only says closed). */
export function isMarkedSafe(status: string, requested: TRequestedAction | null): boolean {
  return status === 'closed' && requested?.action === 'safe' && requested.status === 'closed';
}

export function isKnownStatus(status: string): status is TKnownStatus {
  return (INCIDENT_STATUSES as readonly string[]).includes(status);
}

/**
 * The status-to-actions table of the sidebar: what the card offers for each incident status,
 * without an action asked for that the service has not acted on yet.
 */
export function planForStatus(
  status: string,
  pending: TIncidentActionId | null = null,
): StatusPlan {
  if (!isKnownStatus(status)) return { known: false, actor: 'closed', primary: null, more: [] };
  const plan = PLANS[status];
  return {
    known: true,
    actor: plan.actor,
    primary: plan.primary === pending ? null : plan.primary,
    more: plan.more.filter((action) => action !== pending),
  };
}

export const ACTOR_HUES: Record<TActor, string> = {
  needs_you: 'yellow',
  in_progress: 'blue',
  done: 'green',
  failed: 'red',
  closed: 'grey',
};

import { INCIDENT_STATUSES } from '../api/incidentTypes';

/** Who acts next, which the status tag's colour says. */
export type TActor = 'needs_you' | 'in_progress' | 'done' | 'failed' | 'closed';

export type TIncidentActionId = 'approve' | 'takedown' | 'monitor' | 'safe';

export interface TStatusPlan {
  /** Whether the status is one the app knows; an unknown one offers no action. */
  known: boolean;
  actor: TActor;
  /** The one action that fits the status, shown on the card; null when the agent need not act. */
  primary: TIncidentActionId | null;
  /** The other actions that still apply, under "More actions". */
  more: TIncidentActionId[];
}

type TKnownStatus = (typeof INCIDENT_STATUSES)[number];

const PLANS: Record<TKnownStatus, Omit<TStatusPlan, 'known'>> = {
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

export function isKnownStatus(status: string): status is TKnownStatus {
  return (INCIDENT_STATUSES as readonly string[]).includes(status);
}

/** The status-to-actions table of the sidebar: what the card offers for each incident status. */
export function planForStatus(status: string): TStatusPlan {
  if (!isKnownStatus(status)) return { known: false, actor: 'closed', primary: null, more: [] };
  return { known: true, ...PLANS[status] };
}

export const ACTOR_HUES: Record<TActor, string> = {
  needs_you: 'yellow',
  in_progress: 'blue',
  done: 'green',
  failed: 'red',
  closed: 'grey',
};

import type { TDetailedIncident, TSnapshot, TTakedownAttempts, TUsage } from './incidentTypes';

// The sidebar API the connector implements; documented in apps/sidebar/SIDEBAR_API.md.

export const LINK_STATES = ['linked', 'unlinked', 'none', 'failed'] as const;
export type TLinkState = (typeof LINK_STATES)[number];

export interface TSidebarTicket {
  id: number;
  /** linked: Incident ID set; unlinked: Threat set, no incident; none: neither; failed: tagged incident_unlinked. */
  linkState: TLinkState;
  incidentId: string | null;
  /** The saved Threat field value, attacker-controlled. */
  threat: string | null;
  /** Why linking failed (linkState failed), already human-readable; shown as text. */
  unlinkedReason?: string;
  /**
   * Why linking failed, as a value (linkState failed): duplicate when the service already has an
   * incident for the threat (retrying cannot link it), failed otherwise. Absent from older connectors.
   */
  unlinkedCause?: 'duplicate' | 'failed';
  /** Ticket field ids, so the sidebar can listen to their change events. */
  fieldIds: { threat?: number; incidentId?: number; incidentStatus?: number };
}

export type TPartName = 'incident' | 'snapshots' | 'takedownAttempts' | 'usage';

/** A part the connector could not fetch this time, so "none" is never confused with "failed". */
export interface TUnavailablePart {
  part: TPartName;
  /** rate_limited: the service answered 429; temporarily_unavailable: 5xx or no answer. */
  reason: 'not_enabled' | 'rate_limited' | 'temporarily_unavailable' | 'not_found';
  /** rate_limited: the service's Retry-After, in whole seconds (0 to 600), when it sent one. */
  retryAfterSeconds?: number;
}

export interface TFailedForward {
  id: string;
  /** What was being forwarded, e.g. comment or status. */
  kind: string;
  failedAt: string;
  attempts: number;
  lastError: string;
}

export interface TSyncHealth {
  lastEventAppliedAt: string | null;
  pendingForwards: number;
  failedForwards: TFailedForward[];
  /** Incident changes recorded for this ticket and not yet written to it (paced or paused). */
  waitingTicketUpdates: number;
  /** When the oldest of them was recorded; null when none waits. */
  waitingSince: string | null;
}

export interface TSidebarTicketView {
  ticket: TSidebarTicket;
  incident: TDetailedIncident | null;
  snapshots: TSnapshot[];
  takedownAttempts: TTakedownAttempts | null;
  usage: TUsage | null;
  sync: TSyncHealth;
  unavailable: TUnavailablePart[];
  fetchedAt: string;
}

export type TReportMode = 'takedown' | 'monitor';
export type TIncidentAction = 'takedown' | 'monitor' | 'safe';

export interface TActionAck {
  message?: string;
}

export interface TConnectorErrorBody {
  error?: { code?: string; message?: string; retryAfterSeconds?: number };
}

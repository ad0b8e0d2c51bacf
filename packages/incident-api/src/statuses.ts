// The status vocabulary alone, without zod, so browser code (the sidebar) can import the values
// without pulling the schemas into its bundle.

/** The computed, verbose incident status vocabulary (spec: States and transitions). */
export const INCIDENT_STATUSES = [
  'pending_review',
  'case_building',
  'approval_required',
  'takedown_ready',
  'pre_weaponised',
  'takedown_in_progress',
  'takedown_success',
  'takedown_attempt_failed',
  'blocklisted',
  'action_required',
  'closed',
] as const;

export type TKnownIncidentStatus = (typeof INCIDENT_STATUSES)[number];

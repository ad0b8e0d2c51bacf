// Type-only: the zod schemas of @incident-desk/incident-api stay out of the browser bundle.
// The connector parses the incident service's answers with them; the sidebar reads the result.
import type { TKnownIncidentStatus } from '@incident-desk/incident-api/schemas';

export type {
  TBlocklistListing,
  TDetailedIncident,
  TIncidentHistory,
  TIncidentInsights,
  TIncidentState,
  TRegistrar,
  TSnapshot,
  TTakedownAttempt,
  TTakedownAttempts,
  TThreatTaxonomyExpanded,
  TTypeReference,
  TUsage,
} from '@incident-desk/incident-api/schemas';

/** The statuses the spec names (with translated meanings); a value outside it is shown raw. */
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
] as const satisfies readonly TKnownIncidentStatus[];

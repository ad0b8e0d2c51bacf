// Types only from the schemas: zod stays out of the browser bundle. The connector parses the
// incident service's answers with them; the sidebar reads the result.

export type {
  TBlocklistListing,
  TDetailedIncident,
  TIncidentHistory,
  TIncidentInsights,
  TIncidentState,
  TSnapshot,
  TTakedownAttempt,
  TTakedownAttempts,
  TTypeReference,
  TUsage,
} from '@incident-desk/incident-api/schemas';

/** The statuses the spec names (with translated meanings); a value outside it is shown raw. */
export { INCIDENT_STATUSES } from '@incident-desk/incident-api/statuses';

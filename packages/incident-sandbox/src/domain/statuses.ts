// The status vocabulary is the shared one of the client package, so the sandbox cannot drift from it.
export {
  INCIDENT_STATUSES as STATUSES,
  isKnownIncidentStatus as isStatus,
  type TKnownIncidentStatus as TStatus,
} from '@incident-desk/incident-api';

export { handleIncidentEvent } from './handle-incident-event';
export { incidentEventSyncHandler } from './incident-event-sync-handler';
export { parseIncidentEvent } from './parse-incident-event';
export type { ParsedIncidentEvent } from './incident-event';
export { IncidentTicketPendingError } from './resolve-ticket';
export { OwnIncidentCallPendingError } from '../echo-ledger';

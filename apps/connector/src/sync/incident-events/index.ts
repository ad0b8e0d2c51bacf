export { handleIncidentEvent } from './handle-incident-event';
export { incidentEventSyncHandler } from './incident-event-sync-handler';
export { parseIncidentEvent, type ParsedIncidentEvent } from './parse-incident-event';
export { IncidentTicketPendingError } from './resolve-ticket';
export { OwnIncidentCallPendingError } from '../echo-ledger';

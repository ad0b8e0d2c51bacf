export { handleIncidentEvent } from './handle-incident-event';
export type { IncidentEventDeps } from './handler-deps';
export { parseIncidentEvent, type ParsedIncidentEvent } from './parse-incident-event';
export { IncidentTicketPendingError } from './resolve-ticket';

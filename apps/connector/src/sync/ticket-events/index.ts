export { handleTicketEvent } from './handle-ticket-event';
export {
  RECONCILE_DUPLICATE,
  RECONCILE_LINK_CONFLICT,
  RECONCILE_OUTCOME_UNKNOWN,
} from '../../notes/report-notes';
export { SUPPORTED_EVIDENCE_TYPES, ATTACH_REQUEST_MAX_BYTES } from './evidence-files';
// every tag the ticket sync reads or writes
export * from './ticket-tags';
export { ticketEventSyncHandler } from './ticket-event-sync-handler';

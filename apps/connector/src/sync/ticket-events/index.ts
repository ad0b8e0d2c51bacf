export { handleTicketEvent } from './handle-ticket-event';
export {
  RECONCILE_DUPLICATE,
  RECONCILE_LINK_CONFLICT,
  RECONCILE_OUTCOME_UNKNOWN,
} from '../../notes';
export { ticketEventSyncHandler } from './ticket-event-sync-handler';

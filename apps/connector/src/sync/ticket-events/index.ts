export { handleTicketEvent } from './handle-ticket-event';
export type { TicketEventDeps } from './ticket-event-deps';
export {
  RECONCILE_DUPLICATE,
  RECONCILE_LINK_CONFLICT,
  RECONCILE_OUTCOME_UNKNOWN,
} from './report-threat';
export { SUPPORTED_EVIDENCE_TYPES, MAX_EVIDENCE_BYTES } from './evidence-files';
export {
  ACTION_REQUEST_TAGS,
  SUBMIT_TAGS,
  TAG_LINKED,
  TAG_SUBMIT,
  TAG_SUBMIT_MONITOR,
  TAG_UNLINKED,
} from './ticket-tags';
export { ticketEventSyncHandler, ZTicketEventJob } from './ticket-event-sync-handler';

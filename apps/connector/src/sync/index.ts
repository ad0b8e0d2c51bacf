// The sync rules: ticket events, incident events, and the one writer of each account's tickets.
// The one door into sync/: other folders import only what is exported here.
export { ECHO_RETENTION_MS } from './echo-ledger/echo-windows';
export { callAsOwn } from './echo-ledger';
export {
  recordZendeskWebhookHealth,
  throttledZendeskWebhookHealth,
} from './incident-events/account-health';
export { incidentEventSyncHandler } from './incident-events';
export { saveLinkUnderClaim } from './incident-link-claim';
export { statusFieldWithLink } from './status-field-with-link';
export type { SyncDeps } from './sync-deps';
export { ticketEventSyncHandler } from './ticket-events';
export { readTicketComments } from './ticket-events/read-ticket-comments';
export { unlinkedReasonOf } from './ticket-events/report-attempt';
export { customFieldValue } from './ticket-events/ticket-values';
export {
  NOTE_MARKER,
  TicketWriteDeferred,
  reserveTicketWrite,
  updateTicket,
} from './ticket-writer';
export { makePutOffChangesDue, writesPausedUntil } from './ticket-writes/make-changes-due';
export {
  startTicketWriter,
  type TicketWriterOptions,
  type TicketWriterService,
} from './ticket-writes/ticket-writer-service';
export { clearWriteFailure, writeHealthRecorder } from './ticket-writes/write-health-recorder';
export {
  writeHealthReader,
  type WriteHealthOverview,
  type WriteHealthReader,
} from './ticket-writes/write-health-report';

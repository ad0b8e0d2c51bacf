// What the admin API answers and the admin page reads: one definition for both sides (the
// connector writes these shapes, apps/admin renders them).
export { OUTCOMES, TAKEDOWN_BUCKETS } from './analytics';
export type { DurationGroup, TakedownAnalytics, TOutcome } from './analytics';
export { ACCESS_CAUSES, TICKET_WRITE_CAUSES } from './ticket-writes';
export type {
  TicketWriteFailure,
  TicketWriteHealth,
  TTicketWriteCause,
  TTicketWriteState,
} from './ticket-writes';
export { DISCONNECT_REASONS } from './disconnect';
export type {
  AccountDisconnection,
  DisconnectRequest,
  DisconnectResult,
  DisconnectStep,
  TDisconnectItem,
  TDisconnectOutcome,
  TDisconnectReason,
} from './disconnect';
export { FAILED_WORKS } from './failed-syncs';
export type {
  FailureDescription,
  TFailedWork,
  TFailureParty,
  TFailureProblem,
} from './failed-syncs';
export type {
  SetupOutcomeCodes,
  TSetupNarrowing,
  TSetupOutcome,
  TZendeskWebhookTest,
} from './setup-report';
export type { TUnlinkedWhy } from './reconciliation';

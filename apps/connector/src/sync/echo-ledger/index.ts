// The echo ledger: what the connector sends (notes on tickets; comments, actions, uploads and
// reports to incidents) is recorded here before it is sent, recognised here when it comes back,
// and expires by the contract's retention (ECHO_RETENTION_MS, src/retention). The one home of
// "is this our own echo?" (docs/architecture.md, "Own echoes").
export { ECHO_RETENTION_MS, OWN_CALL_IN_FLIGHT_MS } from './echo-windows';
export {
  forgetEvidenceUpload,
  recordEvidenceUpload,
  recordOwnNote,
  recordOwnNotesSql,
  recordReportComment,
  recordReportHistory,
} from './record-own-sends';
export { callAsOwn, settleOwnCall, startOwnCall, type OwnCall } from './own-calls';
export {
  OWN_CALL_ENTRY,
  OWN_COMMENT_ENTRY,
  recogniseIncidentEcho,
  REPORT_OWN_ENTRY,
  type HistoryEvent,
} from './recognise-incident-echo';
export { OwnIncidentCallPendingError } from './own-call-in-flight';
export { absorbEvidenceEcho } from './absorb-evidence-echo';
export { isRecordedOwnNote } from './recognise-own-note';

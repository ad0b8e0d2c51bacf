// The echo ledger: what the connector sends (notes on tickets; comments, actions, uploads and
// reports to incidents) is recorded here before it is sent, recognised here when it comes back,
// and expires by the contract's retention (ECHO_RETENTION_MS, src/retention). The one home of
// "is this our own echo?" (docs/architecture.md, "Own echoes").
export {
  forgetEvidenceUpload,
  recordEvidenceUpload,
  recordOwnNote,
  recordOwnNotesSql,
  recordReportComment,
  recordReportHistory,
} from './record-own-sends';
export { callAsOwn, settleOwnCall, startOwnCall } from './own-calls';
export { recogniseIncidentEcho, REPORT_OWN_ENTRY } from './recognise-incident-echo';
export { OwnIncidentCallPendingError } from './own-call-in-flight';
export { absorbEvidenceEcho } from './absorb-evidence-echo';
export { isRecordedOwnNote } from './recognise-own-note';

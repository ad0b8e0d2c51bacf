// What agents read on a ticket: every note's text, in the account's language.
// The one door into notes/: other folders import only what is exported here.
export { dashboardLink } from './dashboard-link';
export {
  detectedIncidentFallbackNote,
  detectedIncidentNote,
  detectedTicketSubject,
} from './detected-incident-note';
export { incidentChangeNote, type ChangeEntry, type NoteChange } from './incident-change-note';
export { normalizeText } from './normalize';
export { notePlain } from './note-limits';
export {
  RECONCILE_DUPLICATE,
  RECONCILE_LINK_CONFLICT,
  RECONCILE_OUTCOME_UNKNOWN,
  invalidThreatNote,
  notLinkedNote,
  reportNotTakenNote,
  reportedNote,
  threatProblemText,
  unlinkedDetail,
  type ReportMode,
} from './report-notes';
export { hasNews, type TakedownNews } from './takedown-news';
export { EN } from './texts/en';
export { noteLocaleOf, noteTexts, type NoteLocale, type NoteTexts } from './texts';
export type {
  ForwardFailure,
  SkipReason,
  ThreatProblem,
  UnlinkedReason,
} from './texts/note-reasons';
export { GENERIC_THREAT, displayThreat, threatValue } from './threat-display';

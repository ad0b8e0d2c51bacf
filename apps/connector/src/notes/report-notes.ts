// What the agent reads on a ticket about its report (ticket -> incident), one function per outcome,
// in the account's language. Threats are defanged where they appear (noteThreat).
import { noteThreat } from './note-limits';
import { EN, problem as englishProblem } from './texts/en';
import type { NoteTexts, ReportMode } from './texts/note-texts';
import type { ThreatProblem, UnlinkedReason } from './texts/note-reasons';

export type { ReportMode } from './texts/note-texts';

function shownThreat(threat: unknown): string | null {
  return typeof threat === 'string' && threat.trim() ? noteThreat(threat) : null;
}

export function invalidThreatNote(
  t: NoteTexts,
  input: { problem: ThreatProblem; threat: unknown; submitTag: string },
): string {
  return t.report.invalidThreat(input.problem, shownThreat(input.threat), input.submitTag);
}

/** The service did not take the report (unavailable, or it refused it): nothing was reported. */
export function reportNotTakenNote(
  t: NoteTexts,
  input: { mode: ReportMode; failure: string; unavailable: boolean; submitTag: string },
): string {
  return input.unavailable
    ? t.report.unavailable(input.mode, input.failure, input.submitTag)
    : t.report.refused(input.mode, input.failure, input.submitTag);
}

export function reportedNote(
  t: NoteTexts,
  input: {
    mode: ReportMode;
    threat: unknown;
    /** What the Incident ID field holds (the report's id). */
    fieldValue: string;
  },
): string {
  return t.report.reported(input.mode, shownThreat(input.threat), input.fieldValue);
}

/** A duplicate, a lost answer or a link conflict: the ticket waits for an administrator. */
export function notLinkedNote(
  t: NoteTexts,
  input: { mode: ReportMode; state: 'duplicate' | 'failed'; reason: UnlinkedReason | string },
): string {
  const reason = typeof input.reason === 'string' ? input.reason : t.report.unlinked(input.reason);
  return input.state === 'duplicate'
    ? t.report.duplicate(reason)
    : t.report.notLinked(input.mode, reason);
}

/** Reconciliation reasons, as stored and shown on the admin page (the sidebar reads the first). */
export const RECONCILE_DUPLICATE = 'duplicate';
export const RECONCILE_OUTCOME_UNKNOWN = 'report outcome unknown';
export const RECONCILE_LINK_CONFLICT = 'link conflict';

/** Why a report was not linked, in English: the reconciliation entry's detail (admin page). */
export function unlinkedDetail(reason: UnlinkedReason): string {
  return EN.report.unlinked(reason);
}

/** A threat problem in English, for logs and the job's outcome. */
export function threatProblemText(problem: ThreatProblem): string {
  return englishProblem(problem);
}

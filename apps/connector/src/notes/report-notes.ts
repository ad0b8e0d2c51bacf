// What the agent reads on a ticket about its report (ticket -> incident), one function per outcome.
// Threats and analysts' texts are defanged where they appear (noteThreat).
import { noteThreat } from './note-limits';

export type ReportMode = 'takedown' | 'monitor';

const MODE_TEXT: Record<ReportMode, string> = { takedown: 'takedown', monitor: 'monitoring' };

export function invalidThreatNote(input: {
  problem: string;
  threat: unknown;
  submitTag: string;
}): string {
  const shown =
    typeof input.threat === 'string' && input.threat.trim() ? ` (${noteThreat(input.threat)})` : '';
  return (
    `Not reported to the incident service: ${input.problem}${shown}. ` +
    `Enter a URL, domain, email address, E.164 phone number (such as +14155550123) or IPv4 address ` +
    `in the Threat field and add the ${input.submitTag} tag again.`
  );
}

/** The service did not take the report (unavailable, or it refused it): nothing was reported. */
export function reportNotTakenNote(input: {
  mode: ReportMode;
  failure: string;
  unavailable: boolean;
  submitTag: string;
}): string {
  const mode = MODE_TEXT[input.mode];
  return input.unavailable
    ? `The incident service was unavailable for the report for ${mode} (${input.failure}). Nothing was reported; add the ${input.submitTag} tag again to retry.`
    : `The incident service refused the report for ${mode} (${input.failure}). Nothing was reported; fix what it names and add the ${input.submitTag} tag again.`;
}

export function reportedNote(input: {
  mode: ReportMode;
  threat: unknown;
  /** What the Incident ID field holds (the report's id). */
  fieldValue: string;
  /** The id events and lists carry, when it differs. */
  incidentId: string;
}): string {
  const { threat, fieldValue, incidentId } = input;
  return (
    `Reported to the incident service for ${MODE_TEXT[input.mode]}` +
    (typeof threat === 'string' && threat ? `: ${noteThreat(threat)}` : '') +
    `. Incident ID: ${fieldValue}` +
    (fieldValue !== incidentId ? ` (events and lists name it ${incidentId})` : '') +
    '.'
  );
}

/** A duplicate, a lost answer or a link conflict: the ticket waits for an administrator. */
export function notLinkedNote(input: {
  mode: ReportMode;
  state: 'duplicate' | 'failed';
  detail: string;
}): string {
  const what =
    input.state === 'duplicate'
      ? `The incident service already has an incident for this threat (${input.detail}).`
      : `The report for ${MODE_TEXT[input.mode]} could not be linked: ${input.detail}.`;
  return `${what} The ticket was not linked and is not reported again; it waits in the reconciliation queue for an administrator to link it.`;
}

/** Reconciliation reasons, as stored and shown on the admin page (the sidebar reads the first). */
export const RECONCILE_DUPLICATE = 'duplicate';
export const RECONCILE_OUTCOME_UNKNOWN = 'report outcome unknown';
export const RECONCILE_LINK_CONFLICT = 'link conflict';

/** Why a report was not linked: the detail of notLinkedNote and of the reconciliation entry. */
export const unlinkedDetail = {
  /** The service answered 409, or 200 without an incident id. */
  duplicate: (status: number) =>
    status === 409 ? 'answered 409' : 'answered without an incident id',
  lostAnswer: (failure: string) => `the report request failed midway (${failure})`,
  stoppedWhileSending: 'a previous attempt stopped while the report was being sent',
  ticketBeingOpened: (incidentId: string) =>
    `reported as incident ${incidentId}, but a ticket is being opened for that incident`,
  linkCollides: (incidentId: string, other: string) =>
    `reported as incident ${incidentId}, but the link collides with ${other}`,
};

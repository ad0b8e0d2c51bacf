// Every sentence the connector writes into a ticket, per language the sidebar has (en, fr). One
// interface, so a language that misses a text, or a call site that names one that does not exist,
// fails the type check. Values (analysts' words, threats, names) come in already made safe for a
// note (note-limits.ts); the texts only place them.
import type {
  AttachmentRefusal,
  ForwardFailure,
  SkipReason,
  ThreatProblem,
  UnlinkedReason,
} from './note-reasons';

export type NoteLocale = 'en' | 'fr';

export type ReportMode = 'takedown' | 'monitor';

type IncidentActionKind = 'tkd' | 'monitor' | 'safe';

export interface NoteTexts {
  status: {
    /** The sidebar's label of a known status (its translations, status.<value>.label). */
    labels: Record<string, string>;
    /** The sidebar's meaning of a known status (status.<value>.meaning). */
    meanings: Record<string, string>;
  };

  change: {
    titleOne: string;
    titleMany(count: number): string;
    status(label: string): string;
    statusNotGiven: string;
    analyst(message: string): string;
    /** An older status change: the field keeps `current` (a label), or stays as it is (null). */
    superseded(current: string | null): string;
    nextStepApproval: string;
    nextStepAction: string;
    historyUpdated: string;
    actionRequired: string;
    request(reason: string): string;
    noReason: string;
    newerShown: string;
    dashboard(url: string): string;
  };

  takedown: {
    listed(names: string[]): string;
    submitted(names: string[]): string;
    attemptsSent(from: number, to: number, registrar: string | null): string;
    attemptEnded(number: number, outcome: string): string;
    snapshots(count: number): string;
  };

  detected: {
    intro: string;
    introWithoutDetail: string;
    detailUnreadable: string;
    line(label: string, value: string): string;
    labels: {
      threat: string;
      domain: string;
      type: string;
      status: string;
      taxonomy: string;
      registrar: string;
      hostingProvider: string;
      blocklists: string;
      whois: string;
      certificate: string;
      hosting: string;
      dnsRecords: string;
      pageTitle: string;
      finalUrl: string;
    };
    notAvailable: string;
    incidentClass(value: string): string;
    difficulty(value: string): string;
    noneSubmitted: string;
    submittedInProgress: string;
    unknown: string;
    unknownPartner: string;
    unknownType: string;
    since(date: string): string;
    insights(snapshotTime: string | null): string;
    noInsights: string;
    registrarUnknown: string;
    daysOld(days: number): string;
    ageUndetermined: string;
    newlyRegistered: string;
    valid: string;
    invalid: string;
    validityUndetermined: string;
    issuerUnknown: string;
    providersUnknown: string;
    behindCdn(name: string): string;
    noCategory: string;
    genericThreat: string;
  };

  report: {
    invalidThreat(problem: ThreatProblem, shownThreat: string | null, submitTag: string): string;
    unavailable(mode: ReportMode, failure: string, submitTag: string): string;
    refused(mode: ReportMode, failure: string, submitTag: string): string;
    reported(mode: ReportMode, threat: string | null, incidentField: string): string;
    duplicate(reason: string): string;
    notLinked(mode: ReportMode, reason: string): string;
    unlinked(reason: UnlinkedReason): string;
  };

  actions: {
    notLinked(action: IncidentActionKind): string;
    outcomeUnknown(action: IncidentActionKind, why: string, tag: string): string;
    stoppedWhileSending: string;
    answerLost(failure: string): string;
    failed(action: IncidentActionKind, failure: string, tag: string): string;
    done(action: IncidentActionKind): string;
    serviceRefused: string;
  };

  link: {
    linkedByAdmin(incidentId: string, person: string): string;
    retried(person: string): string;
    linkedToExisting(incidentId: string, person: string): string;
  };

  evidence: {
    notSent: string;
    notSentAtReport: string;
    notForwarded: string;
    file(name: string, reason: string): string;
    noName: string;
    skip(reason: SkipReason): string;
    refusal: Record<AttachmentRefusal, string>;
    forwardFailure(failure: ForwardFailure): string;
    /** One line of the comments not forwarded: the comment and why. */
    comment(commentId: number | string, why: string): string;
  };
}

// The catalogue of what notes say, per language: French typography everywhere, and the account's
// Zendesk locale chooses the language.
import { describe, expect, it } from 'vitest';
import { noteLocaleOf, noteTexts, type NoteTexts } from '../src/notes/texts';
import type { SkipReason, UnlinkedReason } from '../src/notes/texts/note-reasons';

const SKIPS: SkipReason[] = [
  { kind: 'unsupported_type', type: 'application/x-sh' },
  { kind: 'unsupported_type', type: null },
  { kind: 'too_large', size: 12, maxBytes: 10, requestMaxBytes: 20 },
  { kind: 'too_large', size: undefined, maxBytes: 10, requestMaxBytes: 20 },
  { kind: 'download_refused', refusal: 'host_not_allowed' },
  { kind: 'download_refused', refusal: 'not_https' },
  { kind: 'download_refused', refusal: 'private_address' },
  { kind: 'download_refused', refusal: 'too_many_redirects' },
  { kind: 'download_refused', refusal: 'bad_redirect' },
  { kind: 'download_gone' },
  { kind: 'download_answered', status: 500 },
  { kind: 'download_timed_out' },
  { kind: 'download_unreachable' },
  { kind: 'download_bad_address' },
  { kind: 'download_failed' },
  { kind: 'upload_unavailable', status: 503 },
  { kind: 'upload_unavailable', status: null },
  { kind: 'upload_unknown', status: null },
  { kind: 'upload_unknown', status: 504 },
  { kind: 'upload_refused', status: 422 },
];

const UNLINKED: UnlinkedReason[] = [
  { kind: 'duplicate', status: 409 },
  { kind: 'duplicate', status: 200 },
  { kind: 'lost_answer', failure: 'Error' },
  { kind: 'stopped_while_sending' },
  { kind: 'ticket_being_opened', incidentId: 'Incident' },
  { kind: 'link_collides', incidentId: 'Incident', other: 'Other' },
];

/** Every sentence of a language, with plain sample values (no punctuation of their own). */
function everything(t: NoteTexts): string[] {
  const c = t.change;
  const k = t.takedown;
  const d = t.detected;
  const r = t.report;
  const a = t.actions;
  const l = t.link;
  const e = t.evidence;
  return [
    ...Object.values(t.status.labels),
    ...Object.values(t.status.meanings),
    c.titleOne,
    c.titleMany(3),
    c.status('Label'),
    c.statusNotGiven,
    c.analyst('Words'),
    c.superseded('Label'),
    c.superseded(null),
    c.nextStepApproval,
    c.nextStepAction,
    c.historyUpdated,
    c.actionRequired,
    c.request('Words'),
    c.noReason,
    c.newerShown,
    c.dashboard('Address'),
    k.listed(['One']),
    k.listed(['One', 'Two']),
    k.submitted(['One']),
    k.attemptsSent(2, 2, 'Registrar'),
    k.attemptsSent(1, 3, null),
    k.attemptEnded(1, 'success'),
    k.attemptEnded(1, 'failed'),
    k.attemptEnded(1, 'not_actionable'),
    k.attemptEnded(1, 'closed'),
    k.snapshots(1),
    k.snapshots(3),
    d.intro,
    d.introWithoutDetail,
    d.detailUnreadable,
    ...Object.values(d.labels).map((label) => d.line(label, 'Value')),
    d.notAvailable,
    d.incidentClass('Value'),
    d.difficulty('Value'),
    d.noneSubmitted,
    d.submittedInProgress,
    d.unknown,
    d.unknownPartner,
    d.unknownType,
    d.since('Date'),
    d.insights('Time'),
    d.insights(null),
    d.noInsights,
    d.registrarUnknown,
    d.daysOld(3),
    d.ageUndetermined,
    d.newlyRegistered,
    d.valid,
    d.invalid,
    d.validityUndetermined,
    d.issuerUnknown,
    d.providersUnknown,
    d.behindCdn('Name'),
    d.noCategory,
    d.genericThreat,
    r.invalidThreat({ kind: 'empty' }, null, 'tag'),
    r.invalidThreat({ kind: 'digits_only' }, 'Shown', 'tag'),
    r.invalidThreat({ kind: 'not_reportable', issues: 'Issues' }, null, 'tag'),
    r.unavailable('takedown', 'Failure', 'tag'),
    r.refused('monitor', 'Failure', 'tag'),
    r.reported('takedown', 'Threat', 'Field'),
    r.reported('monitor', null, 'Field'),
    r.duplicate('Reason'),
    r.notLinked('takedown', 'Reason'),
    ...UNLINKED.map((reason) => r.unlinked(reason)),
    ...(['tkd', 'monitor', 'safe'] as const).flatMap((action) => [
      a.notLinked(action),
      a.outcomeUnknown(action, a.stoppedWhileSending, 'tag'),
      a.outcomeUnknown(action, a.answerLost('Failure'), 'tag'),
      a.failed(action, a.serviceRefused, 'tag'),
      a.done(action),
    ]),
    l.linkedByAdmin('Incident', 'Person'),
    l.retried('Person'),
    l.linkedToExisting('Incident', 'Person'),
    e.notSent,
    e.notSentAtReport,
    e.notForwarded,
    e.file('Name', 'Reason'),
    e.noName,
    ...SKIPS.map((reason) => e.skip(reason)),
    e.comment(7, e.forwardFailure({ kind: 'outcome_unknown', failure: 'Failure' })),
    e.comment(7, e.forwardFailure({ kind: 'not_forwarded', failure: 'Failure' })),
  ];
}

describe('the note catalogue', () => {
  it('French: a narrow no-break space before every ":", ";", "?" and "!", and never another space', () => {
    for (const text of everything(noteTexts('fr'))) {
      expect(text, text).not.toMatch(/[^\u202f][:;?!]/);
      expect(text, text).not.toMatch(/[ \u00a0][:;?!]/);
      expect(text, text).not.toMatch(/ {2}/);
    }
  });

  it('English: no French spacing, and every text differs from the French one', () => {
    const english = everything(noteTexts('en'));
    const french = everything(noteTexts('fr'));
    for (const text of english) expect(text, text).not.toMatch(/[\u202f\u00a0]/);
    const same = english.filter(
      (text, i) =>
        text === french[i] &&
        // names that are the same in both languages
        !['- WHOIS: Value', 'Type: Value'].includes(text.replace('\u202f', '')),
    );
    expect(same).toEqual([]);
  });

  it("takes the language of the account's Zendesk locale: French for fr and its regions, else English", () => {
    expect(noteLocaleOf('fr')).toBe('fr');
    expect(noteLocaleOf('fr-ca')).toBe('fr');
    expect(noteLocaleOf('FR_be')).toBe('fr');
    expect(noteLocaleOf('en-US')).toBe('en');
    expect(noteLocaleOf('de')).toBe('en');
    expect(noteLocaleOf(null)).toBe('en');
    expect(noteLocaleOf(undefined)).toBe('en');
  });
});

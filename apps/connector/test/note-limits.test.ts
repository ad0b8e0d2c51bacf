// Every field shown in a note and every note has a length cap, and a cut ends with "…". (Notes
// carry no footer: what identifies a write is in its audit metadata.) The notes defang the dots
// 。 ． ｡, internationalised domains and bare IPv4 addresses in analyst messages and reasons.
import { describe, expect, it } from 'vitest';
import type { TDetailedIncident } from '@incident-desk/incident-api';
import { detectedIncidentNote, detectedTicketSubject } from '../src/notes/detected-incident-note';
import { incidentChangeNote, type ChangeEntry } from '../src/notes/incident-change-note';
import {
  NOTE_BODY_MAX_CHARS,
  NOTE_FIELD_MAX_CHARS,
  NOTE_MESSAGE_MAX_CHARS,
} from '../src/notes/note-limits';
import { noteTexts } from '../src/notes/texts';
import { displayThreat } from '../src/notes/threat-display';

const EN = noteTexts('en');

const MB = 1 << 20;

/** The coalesced note of one incident change. */
function changeNote(entry: ChangeEntry): string {
  return incidentChangeNote([{ incidentId: 'inc_1', eventAt: new Date(0), entry }], EN)!;
}
const historyNote = (message: string) => changeNote({ kind: 'history', message });
const actionRequiredNote = (reason: string) =>
  changeNote({ kind: 'action_required', reason, reopened: true });

/** The line of `note` that starts with `prefix`, without the prefix. */
function lineAfter(note: string, prefix: string): string {
  const line = note.split('\n').find((l) => l.startsWith(prefix));
  if (line === undefined) throw new Error(`no line "${prefix}" in the note`);
  return line.slice(prefix.length);
}

const base = {
  id: 'inc_1',
  clientId: 'cl_1',
  incidentType: 'domain',
  status: 'monitoring',
  timestamp: '2030-01-01T00:00:00Z',
  history: [],
  blocklists: [],
} as unknown as TDetailedIncident;

describe('note length caps', () => {
  it('cuts a huge analyst message with an ellipsis', () => {
    const note = historyNote('a.'.repeat(MB));
    const message = lineAfter(note, 'Analyst: ');
    expect(message.endsWith('…')).toBe(true);
    expect(message.length).toBe(NOTE_MESSAGE_MAX_CHARS);
    expect(note.split('\n').at(-1)).toBe(`Analyst: ${message}`);
  });

  it('cuts a huge waitForClient reason, defanging what it shows', () => {
    const reason = `Log in at https://evil.example/${'x'.repeat(MB)}`;
    const note = actionRequiredNote(reason);
    const shown = lineAfter(note, 'Request: ');
    expect(shown.startsWith('Log in at hxxps[:]//evil[.]example/xxx')).toBe(true);
    expect(shown.endsWith('…')).toBe(true);
    // cut to the cap, then defanged: `hxxps[:]` and `[.]` add four characters
    expect(shown.length).toBe(NOTE_MESSAGE_MAX_CHARS + 4);
  });

  it('cuts each field of the detected-incident note before defanging it', () => {
    const huge = (unit: string) => unit.repeat(MB / unit.length);
    const note = detectedIncidentNote(
      {
        ...base,
        url: `https://${huge('a.')}example`,
        registrar: { name: huge('reg.example ') },
        blocklists: [
          {
            authority: 'ListX',
            type: 'blocklist',
            status: 'listed',
            link: `https://l.example/${huge('a-')}`,
          },
        ],
        insights: {
          whois: { registrar: huge('a-') },
          certificate: { issuer: huge('ab.') + '!', isValid: true },
          page: { title: huge('a+') },
        },
      } as unknown as TDetailedIncident,
      EN,
    );
    // raw cap 500: a defanged value is at most three times that ([.] for each dot)
    for (const prefix of [
      'Threat: ',
      'Registrar: ',
      '- WHOIS: ',
      '- Certificate: ',
      '- Page title: ',
    ]) {
      const shown = lineAfter(note, prefix);
      expect(shown.length, prefix).toBeLessThanOrEqual(3 * NOTE_FIELD_MAX_CHARS + 40);
      expect(shown, prefix).toContain('…');
    }
    expect(lineAfter(note, '- ListX, blocklist: listed - ')).toMatch(
      /^hxxps\[:\]\/\/l\[\.\]example\/a-a-.*…$/,
    );
    expect(lineAfter(note, 'Threat: ')).toMatch(/^hxxps\[:\]\/\/a\[\.\]a\[\.\].*…$/);
  });

  it('cuts the whole note body', () => {
    const blocklists = Array.from({ length: 5_000 }, (_, i) => ({
      authority: `Partner ${i}`,
      type: 'blocklist',
      status: 'listed',
      link: `https://partner${i}.example/entry`,
    }));
    const note = detectedIncidentNote({ ...base, blocklists } as unknown as TDetailedIncident, EN);
    const body = note;
    expect(body.length).toBe(NOTE_BODY_MAX_CHARS);
    expect(body.endsWith('…')).toBe(true);
    expect(body).not.toMatch(/https?:\/\//);
  });

  it('cuts a huge status and threat in notes and the ticket subject', () => {
    const status = 's'.repeat(MB);
    expect(lineAfter(changeNote({ kind: 'status', status }), 'Status: ').length).toBe(
      NOTE_FIELD_MAX_CHARS,
    );
    const threat = displayThreat({ url: `https://evil.example/${'p'.repeat(MB)}` });
    expect(threat.endsWith('…')).toBe(true);
    const subject = detectedTicketSubject(status, threat);
    expect(subject.length).toBeLessThan(NOTE_FIELD_MAX_CHARS + 250);
    expect(subject.endsWith('…')).toBe(true);
  });
});

describe('defanging in notes is complete', () => {
  const message =
    'Moved to hxxps[:]//evil。example．com and evil｡example, then пример.рф/login ' +
    '(xn--e1afmkfd.xn--p1ai) on 203.0.113.7; write to phisher@evil.example. Done. Next step 1.2';

  it.each([
    ['history message', historyNote(message)],
    ['waitForClient reason', actionRequiredNote(message)],
  ])('%s', (_what, note) => {
    expect(note).toContain('hxxps[:]//evil[。]example[．]com and evil[｡]example');
    expect(note).toContain('пример[.]рф/login');
    expect(note).toContain('(xn--e1afmkfd[.]xn--p1ai)');
    expect(note).toContain('203[.]0[.]113[.]7;');
    expect(note).toContain('phisher[@]evil[.]example. Done. Next step 1.2');
  });

  it('removes control characters before scanning, so one cannot hide a host', () => {
    const note = historyNote('see evil\u0000.example now');
    expect(note).toContain('see evil[.]example now');
  });
});

describe('the coalesced note caps its whole body', () => {
  it('cuts the body of many huge changes', () => {
    const changes = Array.from({ length: 10 }, (_, i) => ({
      incidentId: 'inc_1',
      eventAt: new Date(i * 1000),
      entry: { kind: 'history', message: `${i} ${'x'.repeat(MB)}` } as ChangeEntry,
    }));
    const note = incidentChangeNote(changes, EN)!;
    expect(note.length).toBe(NOTE_BODY_MAX_CHARS);
    expect(note.endsWith('…')).toBe(true);
  });
});

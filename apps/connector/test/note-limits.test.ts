// Every field shown in a note and every note has a length cap, a cut ends with "…", and
// the footer that identifies the note is never cut. The notes defang the dots
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
import { displayThreat } from '../src/notes/threat-display';

const MB = 1 << 20;
const FOOTER = '\n\nIncident: inc_1\nEvent: evt_1';
const CHANGE_FOOTER = '\n\n— incident inc_1 · events evt_1 · ref w1';

/** The coalesced note of one incident change. */
function changeNote(entry: ChangeEntry): string {
  return incidentChangeNote(
    [{ incidentId: 'inc_1', eventRef: 'evt_1', eventAt: new Date(0), entry }],
    'w1',
  );
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
  it('cuts a huge analyst message with an ellipsis and keeps the footer whole', () => {
    const note = historyNote('a.'.repeat(MB));
    const message = lineAfter(note, 'Analyst: ');
    expect(message.endsWith('…')).toBe(true);
    expect(message.length).toBe(NOTE_MESSAGE_MAX_CHARS);
    expect(note.endsWith(CHANGE_FOOTER)).toBe(true);
  });

  it('cuts a huge waitForClient reason, defanging what it shows', () => {
    const reason = `Log in at https://evil.example/${'x'.repeat(MB)}`;
    const note = actionRequiredNote(reason);
    const shown = lineAfter(note, 'Request: ');
    expect(shown.startsWith('Log in at hxxps[:]//evil[.]example/xxx')).toBe(true);
    expect(shown.endsWith('…')).toBe(true);
    // cut to the cap, then defanged: `hxxps[:]` and `[.]` add four characters
    expect(shown.length).toBe(NOTE_MESSAGE_MAX_CHARS + 4);
    expect(note.endsWith(CHANGE_FOOTER)).toBe(true);
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
      'evt_1',
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
    expect(note.endsWith(FOOTER)).toBe(true);
  });

  it('cuts the whole note body and keeps the footer whole', () => {
    const blocklists = Array.from({ length: 5_000 }, (_, i) => ({
      authority: `Partner ${i}`,
      type: 'blocklist',
      status: 'listed',
      link: `https://partner${i}.example/entry`,
    }));
    const note = detectedIncidentNote(
      { ...base, blocklists } as unknown as TDetailedIncident,
      'evt_1',
    );
    expect(note.endsWith(FOOTER)).toBe(true);
    const body = note.slice(0, -FOOTER.length);
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
  it('cuts the body of many huge changes and keeps the footer whole', () => {
    const changes = Array.from({ length: 10 }, (_, i) => ({
      incidentId: 'inc_1',
      eventRef: `evt_${i}`,
      eventAt: new Date(i * 1000),
      entry: { kind: 'history', message: `${i} ${'x'.repeat(MB)}` } as ChangeEntry,
    }));
    const note = incidentChangeNote(changes, 'w1');
    const footerStart = note.lastIndexOf('\n\n— ');
    expect(note.slice(footerStart)).toContain('events evt_0 evt_1');
    expect(footerStart).toBe(NOTE_BODY_MAX_CHARS);
    expect(note.slice(0, footerStart).endsWith('…')).toBe(true);
  });
});

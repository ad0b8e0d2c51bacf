// One readable note per incident change, written for an agent in the account's language.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { incidentChangeNote, type NoteChange } from '../src/notes/incident-change-note';
import { normalizeText } from '../src/notes/normalize';
import { STATUS_LABELS } from '@incident-desk/incident-api';
import { noteTexts } from '../src/notes/texts';
import { markNote, NOTE_MARKER } from '../src/sync/ticket-writer';

const EN = noteTexts('en');
const FR = noteTexts('fr');
const t0 = new Date('2031-01-01T10:00:00Z');
const after = (ms: number) => new Date(t0.getTime() + ms);
const change = (entry: NoteChange['entry'], ms: number): NoteChange => ({
  incidentId: 'inc_1',
  eventAt: after(ms),
  entry,
});

function sidebarStatuses(language: string) {
  const sidebar = JSON.parse(
    readFileSync(
      path.resolve(__dirname, `../../sidebar/src/translations/${language}.json`),
      'utf8',
    ),
  ) as { status: Record<string, { label: string; meaning: string } | string> };
  return Object.fromEntries(
    Object.entries(sidebar.status).filter(([, value]) => typeof value === 'object'),
  ) as Record<string, { label: string; meaning: string }>;
}

describe('incident change note', () => {
  it('uses the status labels and meanings the sidebar shows, in English and in French', () => {
    expect(STATUS_LABELS).toEqual(sidebarStatuses('en'));
    // both with French typography: a narrow no-break space before ":" and ";"
    const french = sidebarStatuses('fr');
    expect(Object.keys(FR.status.labels).sort()).toEqual(Object.keys(french).sort());
    for (const [status, { label, meaning }] of Object.entries(french)) {
      expect(FR.status.labels[status]).toBe(label);
      expect(FR.status.meanings[status]).toBe(meaning);
    }
  });

  it('makes a status change and its history entry one change: label, analyst message, next step, no machine ids', () => {
    const note = incidentChangeNote(
      [
        change({ kind: 'status', status: 'approval_required' }, 0),
        change({ kind: 'history', message: 'Registrar ready; please approve.' }, 300),
      ],
      EN,
    );
    expect(note).toBe(
      [
        'Incident update',
        '',
        'Status: Approval required',
        'The takedown is waiting for your approval.',
        'Analyst: Registrar ready; please approve.',
        'Next step: approve the takedown with "Approve takedown" in the incident-desk sidebar, or reply if it should not go ahead.',
      ].join('\n'),
    );
    expect(note).not.toMatch(/inc_1|evt_|ref /);
  });

  it('says it in French, with a narrow no-break space before the colon', () => {
    const note = incidentChangeNote(
      [
        change({ kind: 'status', status: 'approval_required' }, 0),
        change({ kind: 'history', message: 'Prêt ?' }, 300),
      ],
      FR,
    );
    expect(note).toBe(
      [
        "Mise à jour de l'incident",
        '',
        'Statut\u202f: Approbation requise',
        'Le retrait attend votre approbation.',
        'Analyste\u202f: Prêt ?',
        "Étape suivante\u202f: approuvez le retrait avec «\u202fApprouver le retrait\u202f» dans la barre latérale incident-desk, ou répondez s'il ne doit pas avoir lieu.",
      ].join('\n'),
    );
  });

  it('names what a takedown burst brought: listings, attempts sent and ended, snapshots', () => {
    const note = incidentChangeNote(
      [
        change(
          {
            kind: 'takedown',
            news: { attemptsSent: { from: 2, to: 2, registrar: 'NameCheap' }, snapshots: 1 },
          },
          3_000,
        ),
        change({ kind: 'status', status: 'takedown_in_progress' }, 1_000),
        change(
          {
            kind: 'takedown',
            news: { listed: { names: ['Google Safe Browsing', 'Netcraft'] } },
          },
          2_000,
        ),
        change(
          {
            kind: 'takedown',
            news: { attemptsEnded: [{ number: 1, outcome: 'failed' }], snapshots: 1 },
          },
          4_000,
        ),
        change(
          { kind: 'action_required', reason: 'Send https://proof.example/form', reopened: true },
          5_000,
        ),
      ],
      EN,
    )!;
    const lines = note.split('\n');
    expect(lines[0]).toBe('Incident updates (3)');
    expect(lines).toContain('• Listed on 2 blocklists: Google Safe Browsing, Netcraft.');
    expect(lines).toContain('  Takedown attempt 2 sent to the registrar (NameCheap).');
    expect(lines).toContain('  Takedown attempt 1: failed.');
    expect(lines).toContain('  2 new snapshots.');
    expect(note.indexOf('Takedown in progress')).toBeLessThan(note.indexOf('Listed on'));
    expect(note.indexOf('Listed on')).toBeLessThan(note.indexOf('Action required'));
    expect(note).toContain('Request: Send hxxps[:]//proof[.]example/form');
    expect(note).not.toContain('https://');
    expect(note).not.toContain('Takedown progress changed');
  });

  it.each([
    ['en', EN, 'Next step', 'sidebar'],
    ['fr', FR, 'Étape suivante', 'barre latérale'],
  ] as const)(
    'asks for the next step once in an action-required note, never pointing to the sidebar (%s)',
    (_language, texts, nextStep, sidebar) => {
      const note = incidentChangeNote(
        [
          change({ kind: 'status', status: 'action_required' }, 0),
          change({ kind: 'action_required', reason: 'Send the letter', reopened: true }, 10),
        ],
        texts,
      )!;
      expect(note.split(nextStep)).toHaveLength(2);
      expect(note.indexOf('Send the letter')).toBeLessThan(note.indexOf(nextStep));
      expect(note).not.toContain(sidebar);
      const noReason = incidentChangeNote(
        [change({ kind: 'action_required', reason: null, reopened: true }, 0)],
        texts,
      )!;
      expect(noReason.split(nextStep)).toHaveLength(2);
      expect(noReason).not.toContain(sidebar);
    },
  );

  it('writes no line for takedown updates without news, and no note when nothing else waits', () => {
    expect(incidentChangeNote([change({ kind: 'takedown', news: {} }, 0)], EN)).toBeUndefined();
    // a change recorded before the news was read says nothing either
    expect(incidentChangeNote([change({ kind: 'takedown' }, 0)], EN)).toBeUndefined();
    const note = incidentChangeNote(
      [
        change({ kind: 'status', status: 'takedown_in_progress' }, 0),
        change({ kind: 'takedown', news: {} }, 10),
      ],
      EN,
    );
    expect(note).toBe(
      [
        'Incident update',
        '',
        'Status: Takedown in progress',
        'The takedown has started and is not complete yet.',
      ].join('\n'),
    );
  });

  it('never says "no message was given", and keeps a status this version does not know as its value', () => {
    const note = incidentChangeNote(
      [
        change({ kind: 'history', message: null }, 0),
        change({ kind: 'status', status: 'escalated' }, 1),
      ],
      EN,
    );
    expect(note).toContain('The incident was updated.');
    expect(note).toContain('Status: escalated');
    expect(note).not.toContain('no message was given');
  });

  it("is recognised as the connector's own note by its marker and by its stored text", () => {
    const body = markNote(
      incidentChangeNote([change({ kind: 'takedown', news: { snapshots: 1 } }, 0)], EN)!,
    );
    expect(body.startsWith(`${NOTE_MARKER} Incident update`)).toBe(true);
    // what Zendesk hands back as plain_body (non-breaking spaces, CRLF) normalises to the stored text
    const echoed = body.replace(/ /g, '\u00a0').replace(/\n/g, '\r\n');
    expect(normalizeText(echoed)).toBe(normalizeText(body));
  });
});

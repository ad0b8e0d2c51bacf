// One readable note per incident change, written for an agent.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  eventRefsInNote,
  incidentChangeNote,
  type NoteChange,
} from '../src/notes/incident-change-note';
import { normalizeText } from '../src/notes/normalize';
import { STATUS_LABELS } from '@incident-desk/incident-api';
import { markNote, NOTE_MARKER } from '../src/sync/ticket-writer';

const t0 = new Date('2031-01-01T10:00:00Z');
const after = (ms: number) => new Date(t0.getTime() + ms);
const change = (entry: NoteChange['entry'], ms: number, ref: string): NoteChange => ({
  incidentId: 'inc_1',
  eventRef: ref,
  eventAt: after(ms),
  entry,
});

describe('incident change note', () => {
  it('uses the status labels and meanings the sidebar shows', () => {
    const sidebar = JSON.parse(
      readFileSync(path.resolve(__dirname, '../../sidebar/src/translations/en.json'), 'utf8'),
    ) as { status: Record<string, { label: string; meaning: string } | string> };
    const shown = Object.fromEntries(
      Object.entries(sidebar.status).filter(([, value]) => typeof value === 'object'),
    );
    expect(STATUS_LABELS).toEqual(shown);
  });

  it('makes a status change and its history entry one change: label, analyst message, next step, compact footer', () => {
    const note = incidentChangeNote(
      [
        change({ kind: 'status', status: 'approval_required' }, 0, 'evt_s'),
        change({ kind: 'history', message: 'Registrar ready; please approve.' }, 300, 'evt_h'),
      ],
      'w-1',
    );
    expect(note).toBe(
      [
        'Incident update',
        '',
        'Status: Approval required',
        'The takedown is waiting for your approval.',
        'Analyst: Registrar ready; please approve.',
        'Next step: approve the takedown with "Approve takedown" in the incident-desk sidebar, or reply if it should not go ahead.',
        '',
        '— incident inc_1 · events evt_s evt_h · ref w-1',
      ].join('\n'),
    );
    expect(note).not.toMatch(/^Event: /m);
    expect(eventRefsInNote(note)).toEqual(['evt_s', 'evt_h']);
  });

  it('lists several changes in event order and turns a takedown burst into one line', () => {
    const note = incidentChangeNote(
      [
        change({ kind: 'takedown' }, 3_000, 'evt_t2'),
        change({ kind: 'status', status: 'takedown_in_progress' }, 1_000, 'evt_s'),
        change({ kind: 'takedown' }, 2_000, 'evt_t1'),
        change({ kind: 'takedown' }, 4_000, 'evt_t3'),
        change(
          { kind: 'action_required', reason: 'Send https://proof.example/form', reopened: true },
          5_000,
          'evt_a',
        ),
      ],
      'w-2',
    );
    const lines = note.split('\n');
    expect(lines[0]).toBe('Incident updates (3)');
    expect(note.indexOf('Takedown in progress')).toBeLessThan(note.indexOf('changed 3 times'));
    expect(note.indexOf('changed 3 times')).toBeLessThan(note.indexOf('Action required'));
    expect(note).toContain('Request: Send hxxps[:]//proof[.]example/form');
    expect(note).not.toContain('https://');
    expect(eventRefsInNote(note)).toEqual(['evt_s', 'evt_t1', 'evt_t2', 'evt_t3', 'evt_a']);
  });

  it('never says "no message was given", and keeps a status this version does not know as its value', () => {
    const note = incidentChangeNote(
      [
        change({ kind: 'history', message: null }, 0, 'e1'),
        change({ kind: 'status', status: 'escalated' }, 1, 'e2'),
      ],
      'w-3',
    );
    expect(note).toContain('The incident was updated.');
    expect(note).toContain('Status: escalated');
    expect(note).not.toContain('no message was given');
  });

  it("is recognised as the connector's own note by its marker and by its stored text", () => {
    const body = markNote(incidentChangeNote([change({ kind: 'takedown' }, 0, 'e1')], 'w-4'));
    expect(body.startsWith(`${NOTE_MARKER} Incident update`)).toBe(true);
    // what Zendesk hands back as plain_body (non-breaking spaces, CRLF) normalises to the stored text
    const echoed = body.replace(/ /g, '\u00a0').replace(/\n/g, '\r\n');
    expect(normalizeText(echoed)).toBe(normalizeText(body));
  });
});

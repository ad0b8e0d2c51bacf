// The report's state machine alone: every transition of report-flow.ts, pure (no database, no
// Zendesk, no incident service).
import type { IncidentLink } from '@incident-desk/db';
import { describe, expect, it } from 'vitest';
import {
  RECONCILE_DUPLICATE,
  RECONCILE_LINK_CONFLICT,
  RECONCILE_OUTCOME_UNKNOWN,
} from '../src/sync/ticket-events';
import { transition, type FlowEvent, type FlowState } from '../src/sync/ticket-events/report-flow';
import type { ReportRequest } from '../src/sync/ticket-events/report-request';

const request = { comment: 'see the description' } as unknown as ReportRequest;
const link = { incidentId: 'inc-7', reportRef: 'ref-7' } as unknown as IncidentLink;
const current = { status: 'takedown_requested', readAt: new Date(0) };
const answer = {
  kind: 'answered',
  reportRef: 'ref-7',
  dashboardUrl: 'https://dashboard.test/7',
  message: 'accepted',
} as const;

const claimed: FlowState = { kind: 'claimed', request };
const reported: FlowState = {
  kind: 'reported',
  reportRef: 'ref-7',
  dashboardUrl: null,
  atReport: request,
};

function walk(state: FlowState, events: FlowEvent[]): FlowState {
  return events.reduce(transition, state);
}

describe('report flow transitions', () => {
  it('a fresh report goes unreported -> requested -> claimed -> answered -> reported -> linked -> done', () => {
    const states: FlowState[] = [];
    let state: FlowState = { kind: 'start' };
    const events: FlowEvent[] = [
      { kind: 'nothing_found' },
      { kind: 'read', request },
      { kind: 'claimed' },
      answer,
      { kind: 'recorded' },
      { kind: 'link_saved', link, current },
      { kind: 'written' },
    ];
    for (const event of events) {
      state = transition(state, event);
      states.push(state);
    }
    expect(states.map((s) => s.kind)).toEqual([
      'unreported',
      'requested',
      'claimed',
      'answered',
      'reported',
      'linked',
      'done',
    ]);
    expect(states[4]).toEqual({
      kind: 'reported',
      reportRef: 'ref-7',
      dashboardUrl: 'https://dashboard.test/7',
      atReport: request,
    });
    expect(states[5]).toEqual({ kind: 'linked', link, atReport: request, current });
    expect(state).toEqual({
      kind: 'done',
      outcome: { status: 'applied', detail: 'linked to incident inc-7' },
    });
  });

  it('a ticket already linked, a skipped read and an invalid threat end without a claim', () => {
    expect(transition({ kind: 'start' }, { kind: 'already_linked', incidentId: 'inc-1' })).toEqual({
      kind: 'done',
      outcome: { status: 'skipped', reason: 'ticket already linked to incident inc-1' },
    });
    const skipped = { status: 'skipped', reason: 'gone' } as const;
    expect(transition({ kind: 'unreported' }, { kind: 'skip', outcome: skipped })).toEqual({
      kind: 'done',
      outcome: skipped,
    });
    const invalid = transition(
      { kind: 'unreported' },
      { kind: 'invalid', problem: { kind: 'empty' }, threat: '' },
    );
    expect(invalid).toEqual({ kind: 'invalid', problem: { kind: 'empty' }, threat: '' });
    const ended = transition(invalid, { kind: 'written' });
    expect(ended.kind === 'done' && ended.outcome.status).toBe('failed_permanently');
  });

  it('a 409 and a lost answer go to reconciliation: recorded, then the note', () => {
    const duplicate = transition(claimed, {
      kind: 'failed',
      failure: { kind: 'duplicate', status: 409 },
    });
    expect(duplicate).toEqual({
      kind: 'unlinked',
      state: 'duplicate',
      reason: { kind: 'duplicate', status: 409 },
      reconcile: { reason: RECONCILE_DUPLICATE, why: { kind: 'duplicate', status: 409 } },
    });
    const lost = transition(claimed, {
      kind: 'failed',
      failure: { kind: 'lost_answer', failure: 'timeout' },
    });
    expect(lost).toMatchObject({
      kind: 'unlinked',
      state: 'failed',
      reconcile: { reason: RECONCILE_OUTCOME_UNKNOWN },
    });
    const recorded = transition(duplicate, { kind: 'recorded' });
    expect(recorded).toMatchObject({ kind: 'unlinked', reconcile: undefined });
    expect(transition(recorded, { kind: 'written' })).toEqual({
      kind: 'done',
      outcome: { status: 'applied', detail: 'not linked (duplicate): in reconciliation' },
    });
    // the note comes only once the entry is recorded
    expect(() => transition(duplicate, { kind: 'written' })).toThrow(/no transition/);
  });

  it('a refusal is recorded, then noted; a service that did not act is dropped and retried', () => {
    const error = new Error('503');
    const notActed = (lastAttempt: boolean): FlowEvent => ({
      kind: 'failed',
      failure: { kind: 'not_acted', failure: '503', error, lastAttempt },
    });
    const dropped = transition(claimed, notActed(false));
    expect(dropped).toEqual({ kind: 'dropped', error });
    expect(transition(dropped, { kind: 'recorded' })).toEqual({ kind: 'retry', error });

    expect(transition(claimed, notActed(true))).toEqual({
      kind: 'refused',
      state: 'unavailable',
      failure: '503',
      recorded: false,
    });
    const refused = transition(claimed, {
      kind: 'failed',
      failure: { kind: 'refused', failure: '422 bad url' },
    });
    expect(refused).toEqual({
      kind: 'refused',
      state: 'refused',
      failure: '422 bad url',
      recorded: false,
    });
    expect(walk(refused, [{ kind: 'recorded' }, { kind: 'written' }])).toEqual({
      kind: 'done',
      outcome: { status: 'failed_permanently', reason: 'report rejected: 422 bad url' },
    });
  });

  it('a link claimed by a worker opening a ticket is retried, on the last try reconciled', () => {
    const claimedLink = (lastAttempt: boolean): FlowEvent => ({
      kind: 'link_claimed',
      incidentId: 'inc-7',
      lastAttempt,
    });
    expect(transition(reported, claimedLink(false)).kind).toBe('retry');
    expect(transition(reported, claimedLink(true))).toMatchObject({
      kind: 'unlinked',
      state: 'failed',
      reconcile: {
        reason: RECONCILE_LINK_CONFLICT,
        why: { kind: 'ticket_being_opened', incidentId: 'inc-7' },
      },
    });
    expect(
      transition(reported, { kind: 'link_collides', incidentId: 'inc-7', other: 'ticket 9' }),
    ).toMatchObject({
      kind: 'unlinked',
      reconcile: { why: { kind: 'link_collides', incidentId: 'inc-7', other: 'ticket 9' } },
    });
  });

  it('resumes an earlier run from the state its attempt recorded', () => {
    const found = (stored: Extract<FlowEvent, { kind: 'found' }>['stored']) =>
      transition({ kind: 'start' }, { kind: 'found', stored });
    // the POST may have gone: never reported again, reconciled
    expect(found({ kind: 'claimed' })).toMatchObject({
      kind: 'unlinked',
      state: 'failed',
      reconcile: { reason: RECONCILE_OUTCOME_UNKNOWN, why: { kind: 'stopped_while_sending' } },
    });
    expect(found({ kind: 'reported', reportRef: 'ref-7', dashboardUrl: null })).toEqual({
      kind: 'reported',
      reportRef: 'ref-7',
      dashboardUrl: null,
      atReport: undefined,
    });
    const linked = found({ kind: 'linked', finished: false });
    expect(linked).toEqual({
      kind: 'linked',
      link: undefined,
      atReport: undefined,
      current: undefined,
    });
    expect(walk(linked, [{ kind: 'link_found', link }, { kind: 'written' }])).toMatchObject({
      kind: 'done',
      outcome: { status: 'applied' },
    });
    expect(found({ kind: 'linked', finished: true })).toMatchObject({
      kind: 'done',
      outcome: { status: 'skipped' },
    });
    expect(
      found({ kind: 'unlinked', state: 'duplicate', reason: 'older text', finished: false }),
    ).toEqual({ kind: 'unlinked', state: 'duplicate', reason: 'older text', reconcile: undefined });
    expect(found({ kind: 'refused', state: 'refused', failure: 'no' })).toEqual({
      kind: 'refused',
      state: 'refused',
      failure: 'no',
      recorded: true,
    });
  });

  it('refuses an event its state does not expect', () => {
    expect(() => transition(claimed, { kind: 'written' })).toThrow(/no transition from claimed/);
    expect(() => transition({ kind: 'start' }, answer)).toThrow(/no transition/);
    expect(() =>
      transition({ kind: 'done', outcome: { status: 'applied' } }, { kind: 'recorded' }),
    ).toThrow(/no transition/);
  });
});

// The sidebar API's schemas, as both sides use them: the sidebar reads the connector's answers
// tolerantly (defaults for parts it can go without, unknown values passed through), and refuses a
// body that is not a view; the connector refuses request bodies the API does not allow.
import { describe, expect, it } from 'vitest';
import {
  ZFoundThreatReportBody,
  ZFoundThreats,
  ZIncidentAction,
  ZLinkExistingBody,
  ZReportBody,
  ZSidebarTicketView,
  ZThreatDuplicates,
} from '../src/index';

const linked = {
  ticket: {
    id: 7,
    linkState: 'linked',
    incidentId: 'inc_1',
    threat: 'https://x.example/',
    fieldIds: { threat: 1 },
  },
  incident: {
    id: 'inc_1',
    status: 'a_status_from_next_year',
    history: [{ message: 'm' }],
    blocklists: [],
    aFieldFromNextYear: { kept: true },
  },
  snapshots: [{ id: 's1' }],
  takedownAttempts: { id: 'inc_1', takedownAttempts: [] },
  usage: { clientId: 'c', remainingCredits: null },
  sync: {
    lastEventAppliedAt: null,
    pendingForwards: 0,
    failedForwards: [],
    waitingTicketUpdates: 0,
    waitingSince: null,
  },
  unavailable: [],
  fetchedAt: '2026-11-26T00:00:00.000Z',
};

describe('the ticket view', () => {
  it('passes the incident service’s values through, unknown statuses and fields included', () => {
    const view = ZSidebarTicketView.parse(linked);
    // the parts the connector adds when it knows them read as null when it does not
    expect(view).toEqual({
      ...linked,
      analystRequest: null,
      requestedAction: null,
      sync: { ...linked.sync, writesPausedUntil: null },
      // an answer without the viewer's rights offers what the connector would check on each action
      viewer: { canAct: true, reason: null },
    });
    expect(view.usage?.remainingCredits).toBeNull(); // null is "not applicable", never zero
  });

  it('gives the parts the sidebar can go without their defaults', () => {
    const view = ZSidebarTicketView.parse({ ticket: { id: '42', linkState: 'none' } });
    expect(view.ticket).toEqual({
      id: 42,
      linkState: 'none',
      incidentId: null,
      threat: null,
      fieldIds: {},
    });
    expect(view.incident).toBeNull();
    expect(view.snapshots).toEqual([]);
    expect(view.takedownAttempts).toBeNull();
    expect(view.usage).toBeNull();
    expect(view.sync).toEqual({
      lastEventAppliedAt: null,
      pendingForwards: 0,
      failedForwards: [],
      waitingTicketUpdates: 0,
      waitingSince: null,
      writesPausedUntil: null,
    });
    expect(view.viewer).toEqual({ canAct: true, reason: null });
    expect(view.unavailable).toEqual([]);
    expect(Date.parse(view.fetchedAt)).not.toBeNaN();
  });

  it('defaults an incident’s missing lists', () => {
    const view = ZSidebarTicketView.parse({
      ...linked,
      incident: { id: 'inc_1', status: 'closed' },
    });
    expect(view.incident).toMatchObject({ history: [], blocklists: [] });
  });

  it.each([
    ['no ticket', { incident: null }],
    ['an unknown link state', { ticket: { id: 1, linkState: 'weird' } }],
    ['a ticket id that is no id', { ticket: { id: {}, linkState: 'none' } }],
    ['an incident without id', { ...linked, incident: { status: 'closed' } }],
    ['not an object', 'Bad gateway'],
  ])('is refused with %s', (_, body) => {
    expect(ZSidebarTicketView.safeParse(body).success).toBe(false);
  });

  it('keeps only the link causes it knows', () => {
    const cause = (unlinkedCause: unknown) =>
      ZSidebarTicketView.parse({ ticket: { id: 1, linkState: 'failed', unlinkedCause } }).ticket
        .unlinkedCause;
    expect(cause('duplicate')).toBe('duplicate');
    expect(cause('<b>x</b>')).toBeUndefined();
  });

  it('reads a reason it does not know as temporarily unavailable, and keeps Retry-After', () => {
    const view = ZSidebarTicketView.parse({
      ...linked,
      unavailable: [
        { part: 'usage', reason: 'rate_limited', retryAfterSeconds: 30 },
        { part: 'snapshots', reason: 'a_reason_from_next_year' },
      ],
    });
    expect(view.unavailable).toEqual([
      { part: 'usage', reason: 'rate_limited', retryAfterSeconds: 30 },
      { part: 'snapshots', reason: 'temporarily_unavailable' },
    ]);
  });
});

describe('threats found and duplicates', () => {
  it('leaves out a threat it cannot read and keeps the others', () => {
    const read = ZFoundThreats.parse({
      threats: [
        {
          value: 'https://a.example/',
          kind: 'url',
          display: 'hxxps://a[.]example/',
          seenIn: [{ in: 'subject' }],
        },
        { value: 'x', kind: 'a_kind_from_next_year', display: 'x', seenIn: [] },
        { value: 'b.example', kind: 'domain', display: 'b[.]example', seenIn: [{ in: 'nowhere' }] },
      ],
    });
    expect(read.threats.map((t) => t.value)).toEqual(['https://a.example/', 'b.example']);
    expect(read.threats[1]!.seenIn).toEqual([]);
  });

  it('reads a service search it does not understand as unavailable, and a ticket the agent may not open without its number', () => {
    const read = ZThreatDuplicates.parse({
      value: 'a.example',
      display: 'a[.]example',
      linked: [{ incidentId: 'inc_1', ticketId: 3 }, { incidentId: 'inc_2' }],
      service: { state: 'pondering' },
    });
    expect(read.linked).toEqual([
      { incidentId: 'inc_1', ticketId: 3, reference: null },
      { incidentId: 'inc_2', ticketId: null, reference: null },
    ]);
    expect(read.service).toEqual({ state: 'unavailable' });
  });
});

describe('request bodies', () => {
  it('allow only the report modes and actions the API names', () => {
    expect(ZReportBody.safeParse({ mode: 'monitor' }).success).toBe(true);
    expect(ZReportBody.safeParse({ mode: 'safe' }).success).toBe(false);
    expect(ZIncidentAction.safeParse('safe').success).toBe(true);
    expect(ZIncidentAction.safeParse('delete').success).toBe(false);
  });

  it('trim a picked threat and refuse a blank or oversized one', () => {
    expect(ZLinkExistingBody.parse({ value: '  a.example ' })).toEqual({ value: 'a.example' });
    expect(ZLinkExistingBody.safeParse({ value: '   ' }).success).toBe(false);
    expect(
      ZFoundThreatReportBody.safeParse({ value: 'a'.repeat(2049), mode: 'takedown' }).success,
    ).toBe(false);
    expect(ZFoundThreatReportBody.safeParse({ value: 'a.example' }).success).toBe(false);
  });
});

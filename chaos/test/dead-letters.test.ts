// The soak's judge of dead letters (src/dead-letters.ts): a letter counts only when an injected
// permanent failure explains it, and each injected failure must leave its letter.
import { describe, expect, it } from 'vitest';
import {
  matchDeadLetters,
  type DeadLetter,
  type InjectedPermanentFailures,
} from '../src/dead-letters';

const ACCOUNT = 'acc-1';
const closedAt = Date.parse('2026-11-22T10:00:00Z');
const killedAt = Date.parse('2026-11-22T11:00:00Z');
const injected: InjectedPermanentFailures = {
  invalidReports: [{ accountId: ACCOUNT, ticketId: 7 }],
  closedTickets: [{ accountId: ACCOUNT, ticketId: 4, incidentId: 'inc-4', closedAt }],
  sigkills: [killedAt],
};

let jobs = 0;
function letter(overrides: Partial<DeadLetter> & { eventId?: string }): DeadLetter {
  const { eventId, ...rest } = overrides;
  jobs += 1;
  return {
    accountId: ACCOUNT,
    queue: 'incident-event',
    jobId: `job-${jobs}`,
    ticketId: null,
    incidentId: null,
    reason: 'something',
    payload: eventId ? { event: { id: eventId } } : {},
    createdAt: new Date(closedAt + 1_000),
    ...rest,
  };
}
const invalidReport = () =>
  letter({ queue: 'ticket-event', ticketId: 7n, reason: 'invalid threat: not a URL' });
const closedTicketEvent = (eventId: string, at = closedAt + 1_000) =>
  letter({
    incidentId: 'inc-4',
    eventId,
    reason: '422 RecordInvalid: Record validation errors: Status: closed prevents ticket update',
    createdAt: new Date(at),
  });

describe('dead letters against the injected permanent failures', () => {
  it('explains one letter per invalid report and the events of a closed ticket', () => {
    const check = matchDeadLetters(
      [invalidReport(), closedTicketEvent('evt-1'), closedTicketEvent('evt-2')],
      injected,
      [],
    );
    expect(check).toMatchObject({
      total: 3,
      explained: { invalidReport: 1, closedTicket: 2, killedWhileSending: 0 },
      unexpected: [],
      missing: [],
      doubled: 0,
    });
    expect(check.closedTicketEvents.get('inc-4')).toEqual(['evt-1', 'evt-2']);
  });

  it('refuses what nothing injected explains', () => {
    const check = matchDeadLetters(
      [
        invalidReport(),
        closedTicketEvent('evt-1'),
        // a transient failure that ran out of retries
        letter({ incidentId: 'inc-9', eventId: 'evt-9', reason: 'ZendeskServerError: 503' }),
        // the closed ticket's incident, but before the close
        closedTicketEvent('evt-0', closedAt - 1_000),
        // an invalid Threat on a ticket that was not injected
        letter({ queue: 'ticket-event', ticketId: 8n, reason: 'invalid threat: not a URL' }),
      ],
      injected,
      [],
    );
    expect(check.unexpected).toHaveLength(3);
    expect(check.unexpected.join('\n')).toContain('ZendeskServerError: 503');
  });

  it('reports an injected failure that left no letter', () => {
    const check = matchDeadLetters([], injected, []);
    expect(check.missing).toEqual([
      'no dead letter for the invalid report on ticket 7',
      'no dead letter nor follow-up for the events of incident inc-4 after ticket 4 was closed',
    ]);
  });

  it('needs no letter for a closed ticket whose incident moved to a follow-up', () => {
    const check = matchDeadLetters([], injected, [], new Map([['inc-4', 12]]));
    expect(check.missing).toEqual(['no dead letter for the invalid report on ticket 7']);
    // a link still on the closed ticket is no follow-up
    const stale = matchDeadLetters([], injected, [], new Map([['inc-4', 4]]));
    expect(stale.missing).toHaveLength(2);
  });

  it('counts a second letter for one report or one event as doubled', () => {
    const check = matchDeadLetters(
      [invalidReport(), invalidReport(), closedTicketEvent('evt-1'), closedTicketEvent('evt-1')],
      injected,
      [],
    );
    expect(check.doubled).toBe(2);
    expect(check.unexpected).toHaveLength(2);
  });

  it('explains an action request left sending only by a SIGKILL during its send', () => {
    const cutShort = letter({
      queue: 'ticket-event',
      reason: 'tkd outcome unknown: stopped while sending',
      createdAt: new Date(killedAt + 5_000),
    });
    const noKill = letter({
      queue: 'ticket-event',
      reason: 'tkd outcome unknown: stopped while sending',
      createdAt: new Date(killedAt + 5_000),
    });
    const check = matchDeadLetters(
      [invalidReport(), closedTicketEvent('e'), cutShort, noKill],
      injected,
      [
        { accountId: ACCOUNT, receiptId: cutShort.jobId!, createdAt: new Date(killedAt - 50) },
        // began sending after the kill: no kill explains it
        { accountId: ACCOUNT, receiptId: noKill.jobId!, createdAt: new Date(killedAt + 50) },
      ],
    );
    expect(check.explained.killedWhileSending).toBe(1);
    expect(check.unexpected).toEqual([
      expect.stringContaining(`at ${noKill.createdAt.toISOString()}`),
    ]);
  });
});

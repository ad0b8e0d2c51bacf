import { describe, expect, it } from 'vitest';
import type { AccountContext } from '../src/accounts/account-context';
import { incidentOrderingKey, ZIncidentEventJob } from '../src/jobs/incident-event-job';
import { ticketOrderingKey, ZTicketEventJob } from '../src/jobs/ticket-event-job';
import { incidentEventSyncHandler } from '../src/sync/incident-events';
import type { SyncDeps } from '../src/sync/sync-deps';

describe('job contracts', () => {
  it('order the jobs of one ticket and of one incident under one key each', () => {
    expect(ticketOrderingKey('acc', 42)).toBe(ticketOrderingKey('acc', 42n));
    expect(ticketOrderingKey('acc', 42)).not.toBe(ticketOrderingKey('other', 42));
    expect(incidentOrderingKey('acc', 'inc_1')).toBe('acc:inc_1');
    expect(incidentOrderingKey('acc', null)).toBe('acc:no-incident');
  });

  it('parse what the receivers enqueue, and refuse what they never would', () => {
    const incident = { accountId: 'acc', receivedAt: '2026-11-23T00:00:00Z', event: { data: {} } };
    expect(ZIncidentEventJob.safeParse(incident).success).toBe(true);
    expect(ZIncidentEventJob.safeParse({ ...incident, accountId: '' }).success).toBe(false);
    expect(ZIncidentEventJob.safeParse({ ...incident, event: 'text' }).success).toBe(false);
    const ticket = {
      accountId: 'acc',
      receivedAt: '2026-11-23T00:00:00Z',
      via: 'trigger',
      body: { kind: 'report', ticketId: '7', mode: 'takedown' },
    };
    expect(ZTicketEventJob.parse(ticket).body.ticketId).toBe(7);
    expect(ZTicketEventJob.safeParse({ ...ticket, via: 'browser' }).success).toBe(false);
  });

  it('fail a malformed incident event job for good, with the reason, touching nothing', async () => {
    const untouchable = new Proxy({} as SyncDeps, {
      get: () => {
        throw new Error('the handler must not reach its dependencies');
      },
    });
    const outcome = await incidentEventSyncHandler(untouchable)({} as AccountContext, {
      accountId: 'acc',
    });
    expect(outcome).toMatchObject({ status: 'failed_permanently' });
    expect(outcome.status === 'failed_permanently' && outcome.reason).toMatch(
      /^malformed incident event job: /,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { handleTicketEvent, ticketEventSyncHandler } from '../src/sync/ticket-events';
import type { SyncHandler } from '../src/worker/job-run';
import { backends } from './support/test-database';
import { startTicketSyncHarness, SYNC_ACCOUNT } from './support/sync-ticket-harness';
import { startedForTests } from './support/started-for-tests';

describe.each(backends)('ticket -> incident actions on %s', (backend) => {
  const h = startedForTests(() => startTicketSyncHarness(backend));
  let counter = 0;
  const tag = backend === 'pglite' ? 'a' : 'b';

  async function linkedTicket() {
    counter += 1;
    const ticketId = await h.createTicket({
      threat: `https://act${counter}-${tag}.action-phish.test/`,
    });
    expect(
      (
        await handleTicketEvent(
          { db: h.db },
          h.ctx,
          h.job({ kind: 'report', ticketId, mode: 'monitor' }),
        )
      ).status,
    ).toBe('applied');
    const link = await h.db.prisma.incidentLink.findUniqueOrThrow({
      where: { accountId_ticketId: { accountId: SYNC_ACCOUNT, ticketId: BigInt(ticketId) } },
    });
    return { ticketId, incidentId: link.incidentId };
  }

  const act = (ticketId: number, action: 'tkd' | 'monitor' | 'safe', lastAttempt = false) =>
    handleTicketEvent(
      { db: h.db, lastAttempt },
      h.ctx,
      h.job({ kind: 'action', ticketId, action }),
    );

  const incident = async (id: string) => (await h.incidents()).find((i) => i.id === id)!;

  it.each([
    ['tkd', 'incident_request_takedown', 'case_building', 'Takedown requested.'],
    ['monitor', 'incident_request_monitor', 'pre_weaponised', 'Monitoring requested.'],
    ['safe', 'incident_mark_safe', 'closed', 'Marked safe.'],
  ] as const)(
    '%s: calls the incident endpoint, then removes %s',
    async (action, requestTag, status, noteText) => {
      const { ticketId, incidentId } = await linkedTicket();
      if (action === 'monitor') {
        await fetch(`${h.incidentUrl}/_sandbox/incidents/${incidentId}/advance`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'case_building', force: true }),
        });
      }
      await h.addTags(ticketId, [requestTag]);
      expect((await act(ticketId, action)).status).toBe('applied');
      expect((await incident(incidentId)).status).toBe(status);
      const { ticket } = await h.readTicket(ticketId);
      expect(ticket.tags).not.toContain(requestTag);
      expect(ticket.tags).toContain('incident_linked');
      expect(await h.notesContaining(ticketId, noteText)).toHaveLength(1);

      // the request tag is gone: a redelivery of the same request does nothing
      const historyBefore = (await h.incidents()).find((i) => i.id === incidentId)!;
      expect(await act(ticketId, action)).toMatchObject({ status: 'skipped' });
      expect(await incident(incidentId)).toEqual(historyBefore);

      // adding the tag again is a new request
      await h.addTags(ticketId, [requestTag]);
      expect((await act(ticketId, action)).status).toBe('applied');
      expect(await h.notesContaining(ticketId, noteText)).toHaveLength(2);
    },
  );

  it('turns a refused action into an internal note and removes the tag', async () => {
    const { ticketId, incidentId } = await linkedTicket();
    await fetch(`${h.incidentUrl}/_sandbox/incidents/${incidentId}/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'takedown_in_progress', force: true }),
    });
    await h.addTags(ticketId, ['incident_request_monitor']);
    expect((await act(ticketId, 'monitor')).status).toBe('failed_permanently');
    expect((await incident(incidentId)).status).toBe('takedown_in_progress');
    const notes = await h.notesContaining(ticketId, 'Monitoring request failed: 409');
    expect(notes).toHaveLength(1);
    expect((await h.readTicket(ticketId)).ticket.tags).not.toContain('incident_request_monitor');
  });

  it('retries a transient failure first, and notes it on the last attempt', async () => {
    const { ticketId, incidentId } = await linkedTicket();
    await h.addTags(ticketId, ['incident_request_takedown']);
    await h.incidentFault({
      method: 'POST',
      path: '/v1/incident/:id/tkd',
      kind: 'status',
      status: 503,
      times: 2,
    });
    await expect(act(ticketId, 'tkd')).rejects.toThrow();
    expect((await h.readTicket(ticketId)).ticket.tags).toContain('incident_request_takedown');
    expect(await h.notesContaining(ticketId, 'failed')).toHaveLength(0);

    expect((await act(ticketId, 'tkd', true)).status).toBe('failed_permanently');
    expect(await h.notesContaining(ticketId, 'Takedown request failed: 503')).toHaveLength(1);
    expect((await h.readTicket(ticketId)).ticket.tags).not.toContain('incident_request_takedown');
    expect((await incident(incidentId)).status).toBe('pending_review');
  });

  it('a ticket update that fails after the action was sent: the retry finishes the update and never sends again', async () => {
    const { ticketId, incidentId } = await linkedTicket();
    await h.addTags(ticketId, ['incident_request_takedown']);
    const job = h.job({ kind: 'action', ticketId, action: 'tkd' });
    const deps = { db: h.db, receiptId: `receipt-${backend}-${ticketId}` };
    await h.zendeskFault({
      method: 'PUT',
      path: `/api/v2/tickets/${ticketId}.json`,
      kind: 'error',
      status: 503,
      times: 1,
    });
    await expect(handleTicketEvent(deps, h.ctx, job)).rejects.toThrow();
    const afterSend = await incident(incidentId);
    expect(afterSend.status).toBe('case_building');
    expect((await h.readTicket(ticketId)).ticket.tags).toContain('incident_request_takedown');

    expect((await handleTicketEvent(deps, h.ctx, job)).status).toBe('applied');
    expect(await incident(incidentId)).toEqual(afterSend);
    expect(await h.notesContaining(ticketId, 'Takedown requested.')).toHaveLength(1);
    expect((await h.readTicket(ticketId)).ticket.tags).not.toContain('incident_request_takedown');
  });

  it('a worker that stopped while sending leaves the outcome unknown: noted, never sent again', async () => {
    const { ticketId, incidentId } = await linkedTicket();
    await h.addTags(ticketId, ['incident_request_takedown']);
    const receiptId = `receipt-${backend}-${ticketId}`;
    await h.db.prisma.incidentActionRequest.create({
      data: {
        accountId: SYNC_ACCOUNT,
        receiptId,
        ticketId: BigInt(ticketId),
        incidentId,
        action: 'tkd',
        state: 'sending',
      },
    });
    const before = await incident(incidentId);
    const outcome = await handleTicketEvent(
      { db: h.db, receiptId },
      h.ctx,
      h.job({ kind: 'action', ticketId, action: 'tkd' }),
    );
    expect(outcome.status).toBe('failed_permanently');
    expect(await incident(incidentId)).toEqual(before);
    expect(
      await h.notesContaining(ticketId, 'may or may not have reached the service'),
    ).toHaveLength(1);
    expect((await h.readTicket(ticketId)).ticket.tags).not.toContain('incident_request_takedown');
  });

  it('a connection lost while sending leaves the outcome unknown: noted, never sent again by a retry', async () => {
    const { ticketId, incidentId } = await linkedTicket();
    await h.addTags(ticketId, ['incident_request_takedown']);
    const job = h.job({ kind: 'action', ticketId, action: 'tkd' });
    const deps = { db: h.db, receiptId: `receipt-lost-${backend}-${ticketId}` };
    await h.incidentFault({ method: 'POST', path: '/v1/incident/:id/tkd', kind: 'drop', times: 1 });
    const outcome = await handleTicketEvent(deps, h.ctx, job);
    expect(outcome).toEqual({
      status: 'failed_permanently',
      reason: expect.stringContaining('tkd outcome unknown: answer lost'),
    });
    expect(await h.notesContaining(ticketId, 'the answer was lost')).toHaveLength(1);
    expect((await h.readTicket(ticketId)).ticket.tags).not.toContain('incident_request_takedown');
    const request = await h.db.prisma.incidentActionRequest.findUniqueOrThrow({
      where: { accountId_receiptId: { accountId: SYNC_ACCOUNT, receiptId: deps.receiptId } },
    });
    expect(request.state).toBe('sending');

    // the same delivery again (a retry or a redelivery) sends nothing and notes nothing more
    const before = await incident(incidentId);
    expect((await handleTicketEvent(deps, h.ctx, job)).status).toBe('skipped');
    await h.addTags(ticketId, ['incident_request_takedown']);
    expect((await handleTicketEvent(deps, h.ctx, job)).status).toBe('failed_permanently');
    expect(await incident(incidentId)).toEqual(before);
    expect(
      await h.notesContaining(ticketId, 'may or may not have reached the service'),
    ).toHaveLength(2);

    // the agent asks again: a new delivery sends it
    await h.addTags(ticketId, ['incident_request_takedown']);
    const again = { db: h.db, receiptId: `receipt-again-${backend}-${ticketId}` };
    expect((await handleTicketEvent(again, h.ctx, job)).status).toBe('applied');
    expect((await incident(incidentId)).status).toBe('case_building');
  });

  it('runs as the worker handler: parses the job and passes on the queue’s last try', async () => {
    const handler: SyncHandler = ticketEventSyncHandler({ db: h.db });
    expect(
      await handler(h.ctx, { accountId: SYNC_ACCOUNT, body: { kind: 'action' } }, {} as never),
    ).toMatchObject({
      status: 'failed_permanently',
      reason: expect.stringContaining('malformed ticket event job'),
    });

    const { ticketId } = await linkedTicket();
    await h.addTags(ticketId, ['incident_request_takedown']);
    await h.incidentFault({
      method: 'POST',
      path: '/v1/incident/:id/tkd',
      kind: 'status',
      status: 503,
      times: 2,
    });
    const data = {
      ...h.job({ kind: 'action', ticketId, action: 'tkd' }),
      body: { kind: 'action', ticketId: String(ticketId), action: 'tkd' },
    };
    await expect(handler(h.ctx, data, { retryCount: 0, retryLimit: 3 } as never)).rejects.toThrow();
    expect(await handler(h.ctx, data, { retryCount: 3, retryLimit: 3 } as never)).toMatchObject({
      status: 'failed_permanently',
    });
    expect(await h.notesContaining(ticketId, 'Takedown request failed')).toHaveLength(1);
  });

  it('explains a request on a ticket that has no incident', async () => {
    const ticketId = await h.createTicket({
      threat: `https://unlinked-${tag}.test/`,
      tags: ['incident_mark_safe'],
    });
    expect((await act(ticketId, 'safe')).status).toBe('failed_permanently');
    expect(await h.notesContaining(ticketId, 'not linked to an incident')).toHaveLength(1);
    expect((await h.readTicket(ticketId)).ticket.tags).not.toContain('incident_mark_safe');
  });
});

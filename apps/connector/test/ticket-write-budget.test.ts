// Every ticket update the connector makes outside the drain is counted in the account's shared
// budget (ticket_write_log) before it is sent, keeps to the account's pause, and never waits: when
// Zendesk cannot take it now it throws a TicketWriteDeferred (a JobDeferral), and a 429 pauses the
// account for its Retry-After. A flow whose update is put off after the incident service answered
// resumes on its next run without calling the service again. Against both sandboxes.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ZendeskClient } from '@incident-desk/zendesk-api';
import type { AccountContext } from '../src/accounts/account-context';
import { JobDeferral } from '../src/jobs/job-deferral';
import { handleTicketEvent } from '../src/sync/ticket-events';
import { TicketWriteDeferred, updateTicket } from '../src/sync/ticket-writer';
import {
  pauseAccount,
  readBudget,
  ZENDESK_WRITE_LIMITS,
} from '../src/sync/ticket-writes/write-budget';
import { backends } from './support/test-database';
import { startTicketSyncHarness, SYNC_ACCOUNT } from './support/sync-ticket-harness';
import { startedForTests } from './support/started-for-tests';

describe.each(backends)('direct ticket writes on %s', (backend) => {
  const h = startedForTests(() => startTicketSyncHarness(backend));
  const tag = backend === 'pglite' ? 'a' : 'b';
  let counter = 0;

  afterEach(async () => {
    await setUpdateTicketLimit(100);
    await h.clearFaults();
    await h.db.prisma.ticketWriteLog.deleteMany({ where: { accountId: SYNC_ACCOUNT } });
    await unpause();
  });

  const unpause = () =>
    h.db.prisma.ticketWritePause.deleteMany({ where: { accountId: SYNC_ACCOUNT } });

  /** The sandbox's Update Ticket limit per minute; its window starts afresh. */
  async function setUpdateTicketLimit(perMinute: number) {
    const response = await fetch(`${h.zendeskUrl}/_sandbox/accounts/demo/rate-limit`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ update_ticket_per_minute: perMinute }),
    });
    expect(response.ok).toBe(true);
  }

  /** Every single ticket update the sandbox received (refused ones too). */
  async function ticketPuts(): Promise<number> {
    const response = await fetch(`${h.zendeskUrl}/_sandbox/accounts/demo/api-requests`);
    const counts = (await response.json()) as { by_endpoint: Record<string, number> };
    return counts.by_endpoint['PUT /api/v2/tickets/{id}'] ?? 0;
  }

  const loggedWrites = (ticketId: number) =>
    h.db.prisma.ticketWriteLog.count({
      where: { accountId: SYNC_ACCOUNT, ticketId: BigInt(ticketId) },
    });

  /** `count` single updates already sent `agoMs` before `now` (other tickets unless named). */
  async function seedSent(count: number, now: Date, agoMs: number, ticketId?: number) {
    await h.db.prisma.ticketWriteLog.createMany({
      data: Array.from({ length: count }, (_, i) => ({
        accountId: SYNC_ACCOUNT,
        requestId: randomUUID(),
        ticketId: BigInt(ticketId ?? 9_000_000 + i),
        sentAt: new Date(now.getTime() - agoMs),
      })),
    });
  }

  const newTicket = () =>
    h.createTicket({ threat: `https://w${++counter}-${tag}.test/`, tags: [] });
  const report = (ticketId: number) =>
    handleTicketEvent({ db: h.db }, h.ctx, h.job({ kind: 'report', ticketId, mode: 'takedown' }));
  const linkOf = (ticketId: number) =>
    h.db.prisma.incidentLink.findUnique({
      where: { accountId_ticketId: { accountId: SYNC_ACCOUNT, ticketId: BigInt(ticketId) } },
    });
  const attemptOf = (ticketId: number) =>
    h.db.prisma.reportAttempt.findFirst({ where: { ticketId: BigInt(ticketId) } });

  describe('the writer', () => {
    it('counts an update in the shared budget before sending it, as the drain counts its own', async () => {
      const ticketId = await newTicket();
      const before = await ticketPuts();
      await updateTicket(h.ctx, h.db, ticketId, { note: 'counted' }, { priority: false });
      expect(await ticketPuts()).toBe(before + 1);
      const [row, ...others] = await h.db.prisma.ticketWriteLog.findMany({
        where: { accountId: SYNC_ACCOUNT },
      });
      expect(others).toHaveLength(0);
      expect(row).toMatchObject({ ticketId: BigInt(ticketId) });
      expect(row!.requestId).not.toMatch(/^many:/); // a single update: the account's minute
      const budget = await readBudget(h.db, SYNC_ACCOUNT, ZENDESK_WRITE_LIMITS, new Date());
      expect(budget.accountFree).toBe(ZENDESK_WRITE_LIMITS.accountPerMinute - 1);
      expect(await h.notesContaining(ticketId, 'counted')).toHaveLength(1);
    });

    it("a write Zendesk failed (500, connection dropped) spends the account's minute, not the ticket's ten", async () => {
      const ticketId = await newTicket();
      const path = `/api/v2/tickets/${ticketId}.json`;
      const write = (note: string) =>
        updateTicket(h.ctx, h.db, ticketId, { note }, { priority: false });
      await h.zendeskFault({ path, kind: 'error', status: 500, times: 1 });
      await expect(write('failed')).rejects.toMatchObject({ status: 500 });
      await h.zendeskFault({ path, kind: 'drop', times: 1 });
      await expect(write('dropped')).rejects.toThrow();
      expect(await loggedWrites(ticketId)).toBe(0);
      const minute = await readBudget(h.db, SYNC_ACCOUNT, ZENDESK_WRITE_LIMITS, new Date());
      expect(minute.accountFree).toBe(ZENDESK_WRITE_LIMITS.accountPerMinute - 2);
      await write('written');
      expect(await loggedWrites(ticketId)).toBe(1);
    });

    it('sends nothing while the account is paused: the write is put off for the rest of the pause', async () => {
      const ticketId = await newTicket();
      const now = new Date();
      await pauseAccount(h.db, SYNC_ACCOUNT, new Date(now.getTime() + 90_000));
      const before = await ticketPuts();
      const error = await updateTicket(
        h.ctx,
        h.db,
        ticketId,
        { note: 'paused' },
        { priority: true, now: () => now },
      ).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TicketWriteDeferred);
      expect(error).toBeInstanceOf(JobDeferral);
      expect(error).toMatchObject({ delayMs: 90_000, retryAfterSeconds: 90 });
      expect(await ticketPuts()).toBe(before);
      expect(await loggedWrites(ticketId)).toBe(0);
    });

    it("keeps incident news to the drain's margin; a write an agent waits for may use Zendesk's whole minute", async () => {
      const ticketId = await newTicket();
      const now = new Date();
      await seedSent(ZENDESK_WRITE_LIMITS.accountPerMinute, now, 30_000);
      const write = (priority: boolean) =>
        updateTicket(h.ctx, h.db, ticketId, { addTags: ['budget'] }, { priority, now: () => now });

      // the oldest request of the minute leaves it in 30 s
      await expect(write(false)).rejects.toMatchObject({
        name: 'TicketWriteDeferred',
        delayMs: 30_000,
      });
      await write(true);
      expect(await loggedWrites(ticketId)).toBe(1);

      await seedSent(9, now, 10_000); // 100 in the minute: Zendesk's own limit
      await expect(write(true)).rejects.toBeInstanceOf(TicketWriteDeferred);
      expect(await loggedWrites(ticketId)).toBe(1);
    });

    it('keeps to the ticket’s ten minutes: 28 updates for incident news, 30 for an agent', async () => {
      const ticketId = await newTicket();
      const now = new Date();
      await seedSent(ZENDESK_WRITE_LIMITS.ticketPerTenMinutes, now, 5 * 60_000, ticketId);
      const write = (priority: boolean) =>
        updateTicket(h.ctx, h.db, ticketId, { addTags: ['ten'] }, { priority, now: () => now });

      await expect(write(false)).rejects.toMatchObject({ delayMs: 5 * 60_000 });
      await write(true);
      await write(true);
      await expect(write(true)).rejects.toBeInstanceOf(TicketWriteDeferred);
      expect(await loggedWrites(ticketId)).toBe(30);
    });

    it('a 429 pauses the account for its Retry-After and puts the write off at once, never waiting in the call', async () => {
      const ticketId = await newTicket();
      // a client that would wait out a 429 twice if asked to
      const sleeps: number[] = [];
      const token = h.zendeskSandbox.issueToken('demo', h.connectorUserId, ['read', 'write'], 600);
      const ctx: AccountContext = {
        ...h.ctx,
        zendesk: new ZendeskClient({
          baseUrl: `${h.zendeskUrl}/_z/demo`,
          tokenProvider: {
            getAccessToken: async () => token,
            refreshAfterUnauthorized: async () => token,
          },
          retry: { maxRetries: 2 },
          sleep: async (ms) => {
            sleeps.push(ms);
          },
        }),
      };
      await setUpdateTicketLimit(1);
      await updateTicket(ctx, h.db, ticketId, { addTags: ['first'] }, { priority: true });

      const now = new Date();
      const error = await updateTicket(
        ctx,
        h.db,
        ticketId,
        { addTags: ['second'] },
        { priority: true, now: () => now },
      ).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TicketWriteDeferred);
      expect(sleeps).toEqual([]);
      const pause = await h.db.prisma.ticketWritePause.findUniqueOrThrow({
        where: { accountId: SYNC_ACCOUNT },
      });
      expect(pause.rateLimitedCount).toBe(1);
      const pausedMs = pause.pausedUntil.getTime() - now.getTime();
      expect(pausedMs).toBe((error as TicketWriteDeferred).delayMs);
      expect(pausedMs).toBeGreaterThanOrEqual(1_000);
      expect(pausedMs).toBeLessThanOrEqual(60_000);
      // both were counted in the account's minute (the refused one was sent), only the applied
      // one against the ticket's ten minutes, as Zendesk counts them
      expect(await loggedWrites(ticketId)).toBe(1);
      const minute = await readBudget(h.db, SYNC_ACCOUNT, ZENDESK_WRITE_LIMITS, new Date());
      expect(minute.accountFree).toBe(ZENDESK_WRITE_LIMITS.accountPerMinute - 2);

      // while the pause lasts nothing more is sent
      const before = await ticketPuts();
      await expect(
        updateTicket(ctx, h.db, ticketId, { addTags: ['third'] }, { priority: true }),
      ).rejects.toBeInstanceOf(TicketWriteDeferred);
      expect(await ticketPuts()).toBe(before);
    });

    it("a ticket's own 429 (its 10-minute limit per user) puts the write off without pausing the account", async () => {
      const ticketId = await newTicket();
      const setTicketLimit = (perUser: number) =>
        fetch(`${h.zendeskUrl}/_sandbox/accounts/demo/rate-limit`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            ticket_updates_per_user: perUser,
            ticket_updates_window_ms: 600_000,
          }),
        });
      expect((await setTicketLimit(1)).ok).toBe(true);
      try {
        await updateTicket(h.ctx, h.db, ticketId, { addTags: ['first'] }, { priority: true });
        const error = await updateTicket(
          h.ctx,
          h.db,
          ticketId,
          { addTags: ['second'] },
          {
            priority: true,
          },
        ).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(TicketWriteDeferred);
        expect((error as TicketWriteDeferred).delayMs).toBeGreaterThan(60_000);
        expect(
          await h.db.prisma.ticketWritePause.count({
            where: { accountId: SYNC_ACCOUNT, pausedUntil: { gt: new Date() } },
          }),
        ).toBe(0);
      } finally {
        expect((await setTicketLimit(30)).ok).toBe(true);
      }
    });
  });

  it("counts every update a ticket job makes: a report's answers and an action's tag swap", async () => {
    // an invalid threat: the note explaining it
    const invalid = await h.createTicket({ threat: 'not a threat at all' });
    expect((await report(invalid)).status).toBe('failed_permanently');
    expect(await loggedWrites(invalid)).toBe(1);

    // a report linked, then a duplicate of it: the link's update, the unlinked note
    const threat = `https://counted-${tag}.phish.test/`;
    const first = await h.createTicket({ threat });
    expect((await report(first)).status).toBe('applied');
    const duplicate = await h.createTicket({ threat });
    expect((await report(duplicate)).status).toBe('applied');
    expect(await h.notesContaining(duplicate, 'reconciliation queue')).toHaveLength(1);
    expect([await loggedWrites(first), await loggedWrites(duplicate)]).toEqual([1, 1]);

    // an action on an unlinked ticket (its note), then one on the linked ticket (its tag swap)
    const act = (ticketId: number) =>
      handleTicketEvent({ db: h.db }, h.ctx, h.job({ kind: 'action', ticketId, action: 'safe' }));
    await h.addTags(duplicate, ['incident_mark_safe']);
    expect((await act(duplicate)).status).toBe('failed_permanently');
    expect(await loggedWrites(duplicate)).toBe(2);
    await h.addTags(first, ['incident_mark_safe']);
    expect((await act(first)).status).toBe('applied');
    expect(await loggedWrites(first)).toBe(2);
  });

  describe('a flow whose update is put off resumes without calling the service again', () => {
    it("a paused account's report job is put off instead of writing; its next run links once, reported once", async () => {
      const threat = `https://paused-report-${tag}.phish.test/`;
      const ticketId = await h.createTicket({ threat });
      await pauseAccount(h.db, SYNC_ACCOUNT, new Date(Date.now() + 120_000));
      const before = await ticketPuts();
      await expect(report(ticketId)).rejects.toBeInstanceOf(JobDeferral);
      expect(await ticketPuts()).toBe(before);
      // reported and linked in the database; only the ticket's update is left
      expect(await h.incidentsWithSubject(threat)).toHaveLength(1);
      expect(await attemptOf(ticketId)).toMatchObject({ state: 'linked', finishedAt: null });
      expect((await h.readTicket(ticketId)).ticket.tags).not.toContain('incident_linked');

      await unpause();
      expect((await report(ticketId)).status).toBe('applied');
      expect(await h.incidentsWithSubject(threat)).toHaveLength(1);
      const { ticket } = await h.readTicket(ticketId);
      expect(ticket.tags).toContain('incident_linked');
      expect(ticket.custom_fields.find((f) => f.id === h.demo.incidentFieldId)?.value).toBe(
        (await linkOf(ticketId))!.reportRef,
      );
      expect(await h.notesContaining(ticketId, 'Reported to the incident service')).toHaveLength(1);
      expect(await loggedWrites(ticketId)).toBe(1);
      expect((await report(ticketId)).status).toBe('skipped');
    });

    it("a 429 on a report's update pauses the account and puts the job off; the next run links once", async () => {
      const threat = `https://limited-report-${tag}.phish.test/`;
      const ticketId = await h.createTicket({ threat });
      await setUpdateTicketLimit(1);
      await h.addTags(await newTicket(), ['spends-the-minute']);

      const error = await report(ticketId).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(JobDeferral);
      expect((error as JobDeferral).delayMs).toBeGreaterThan(0);
      const pause = await h.db.prisma.ticketWritePause.findUnique({
        where: { accountId: SYNC_ACCOUNT },
      });
      expect(pause?.pausedUntil.getTime()).toBeGreaterThan(Date.now());
      expect(await h.incidentsWithSubject(threat)).toHaveLength(1);

      await setUpdateTicketLimit(100);
      await unpause();
      expect((await report(ticketId)).status).toBe('applied');
      expect((await h.readTicket(ticketId)).ticket.tags).toContain('incident_linked');
      expect(await h.incidentsWithSubject(threat)).toHaveLength(1);
      expect(await h.notesContaining(ticketId, 'Reported to the incident service')).toHaveLength(1);
    });

    it('a report the service refused, its note put off: the next run writes the note and never reports again', async () => {
      const threat = `https://refused-report-${tag}.phish.test/`;
      const ticketId = await h.createTicket({ threat });
      await h.incidentFault({
        method: 'POST',
        path: '/v1/incident/tkd',
        kind: 'status',
        status: 400,
        times: 1,
      });
      await pauseAccount(h.db, SYNC_ACCOUNT, new Date(Date.now() + 60_000));
      await expect(report(ticketId)).rejects.toBeInstanceOf(JobDeferral);
      expect(await attemptOf(ticketId)).toMatchObject({ state: 'refused' });

      await unpause();
      // the fault is spent: a report sent again would now be taken
      expect((await report(ticketId)).status).toBe('failed_permanently');
      expect(await h.incidentsWithSubject(threat)).toHaveLength(0);
      expect(await h.notesContaining(ticketId, 'refused the report')).toHaveLength(1);
      expect((await h.readTicket(ticketId)).ticket.tags).not.toContain('incident_submit');
      // the agent was told: the claim is gone, so the threat may be reported again
      expect(await attemptOf(ticketId)).toBeNull();
      expect(await loggedWrites(ticketId)).toBe(1);
    });

    it('an action the service refused, its note put off: the next run writes the note and never sends again', async () => {
      const ticketId = await h.createTicket({ threat: `https://refused-action-${tag}.test/` });
      expect((await report(ticketId)).status).toBe('applied');
      const { incidentId } = (await linkOf(ticketId))!;
      await h.addTags(ticketId, ['incident_request_takedown']);
      await h.incidentFault({
        method: 'POST',
        path: '/v1/incident/:id/tkd',
        kind: 'status',
        status: 400,
        times: 1,
      });
      const deps = { db: h.db, receiptId: `receipt-refused-${backend}-${ticketId}` };
      const job = h.job({ kind: 'action', ticketId, action: 'tkd' });
      await pauseAccount(h.db, SYNC_ACCOUNT, new Date(Date.now() + 60_000));
      await expect(handleTicketEvent(deps, h.ctx, job)).rejects.toBeInstanceOf(JobDeferral);

      await unpause();
      expect((await handleTicketEvent(deps, h.ctx, job)).status).toBe('failed_permanently');
      // the fault is spent: a request sent again would have moved the incident on
      const incident = (await h.incidents()).find((i) => i.id === incidentId)!;
      expect(incident.status).toBe('pending_review');
      expect(await h.notesContaining(ticketId, 'Takedown request failed')).toHaveLength(1);
      expect((await h.readTicket(ticketId)).ticket.tags).not.toContain('incident_request_takedown');
      expect(await loggedWrites(ticketId)).toBe(2); // the report's link, the action's note
    });

    it('a note about finished work waits for Zendesk: put off, the next run writes it once', async () => {
      const ticketId = await h.createTicket({ threat: `https://owed-note-${tag}.test/` });
      expect((await report(ticketId)).status).toBe('applied');
      const { incidentId } = (await linkOf(ticketId))!;
      await h.addComment(ticketId, {
        authorId: h.demo.agentIds[0]!,
        body: 'A file for the analyst.',
        public: true,
        attachments: [
          { file_name: 'dropper.exe', content_type: 'application/x-msdownload', content: 'MZ' },
        ],
      });
      const forward = () =>
        handleTicketEvent({ db: h.db }, h.ctx, h.job({ kind: 'comment', ticketId }));
      await pauseAccount(h.db, SYNC_ACCOUNT, new Date(Date.now() + 60_000));
      await expect(forward()).rejects.toBeInstanceOf(JobDeferral);
      expect(
        await h.db.prisma.owedTicketNote.count({ where: { ticketId: BigInt(ticketId) } }),
      ).toBe(1);

      await unpause();
      expect((await forward()).status).toBe('skipped'); // the comment went; only its note was left
      const notes = await h.notesContaining(ticketId, 'Not sent to the incident as evidence');
      expect(notes).toHaveLength(1);
      expect(notes[0]!.body).toContain('dropper[.]exe');
      expect(
        await h.db.prisma.owedTicketNote.count({ where: { ticketId: BigInt(ticketId) } }),
      ).toBe(0);
      const incident = (await h.incidents()).find((i) => i.id === incidentId)!;
      expect(incident.comments.map((c) => c.comment)).toContain('A file for the analyst.');
      expect(incident.comments.filter((c) => c.comment === 'A file for the analyst.')).toHaveLength(
        1,
      );
      // the report's update and the note: both counted
      expect(await loggedWrites(ticketId)).toBe(2);
    });
  });
});

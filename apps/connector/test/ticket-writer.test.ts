// One writer per account coalesces the changes waiting for a ticket into one
// update, writes several tickets with update_many (queued by one pass, its results recorded by a
// later one), paces itself under Zendesk's Update Ticket limits (budgets in the database, shared by
// every writer), treats a 429 as a pause, and keeps the status from moving backwards. Against the
// Zendesk sandbox with its realistic limits.
import { describe, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from '@incident-desk/db';
import type { TTicket } from '@incident-desk/zendesk-api';
import { handleIncidentEvent } from './support/run-incident-event';
import type { SyncDeps } from '../src/sync/sync-deps';
import { STATUS_FIELD_OPTIONS } from '../src/setup/status-field';
import { drainAccountOnce } from '../src/sync/ticket-writes/drain-account';
import { startTicketWriter } from '../src/sync/ticket-writes/ticket-writer-service';
import {
  readBudget,
  ZENDESK_WRITE_LIMITS,
  type WriteLimits,
} from '../src/sync/ticket-writes/write-budget';
import { startInstanceLiveness } from '../src/worker/instance-liveness';
import { startHarness } from './sync-incident-harness';
import { eventually } from './support/eventually';
import { backends } from './support/test-database';
import { startedForTests } from './support/started-for-tests';

const at = (iso: string) => ({ timestamp: iso });

describe.each(backends)('ticket writer on %s', (backend) => {
  const h = startedForTests(() => startHarness(backend));
  /** Records changes and signals nobody: the test runs the writer's passes itself. */
  const deps = (extra: Partial<SyncDeps> = {}): SyncDeps => ({
    db: h.db,
    unlinkedWaitMs: 10,
    writer: { signal: () => undefined },
    ...extra,
  });
  const pass = (
    options: { limits?: WriteLimits; ignoreReadyAt?: boolean; now?: () => Date } = {},
  ) =>
    drainAccountOnce(h.context(), h.db, {
      now: options.now ?? (() => new Date()),
      limits: options.limits ?? ZENDESK_WRITE_LIMITS,
      ignoreReadyAt: options.ignoreReadyAt ?? true,
      jobPollIntervalMs: 50,
    });
  /** Passes until no update_many job carries the account's changes: its results are recorded. */
  const settled = async (): Promise<number> => {
    let written = 0;
    await eventually(
      'the update_many jobs settled',
      async () => {
        written += (await pass()).written;
        const inFlight = await h.db.prisma.pendingTicketChange.count({
          where: { accountId: h.accountId, writtenAt: null, writeJobId: { not: null } },
        });
        return inFlight === 0 ? true : undefined;
      },
      { intervalMs: 100 },
    );
    return written;
  };
  const rateLimited = async () =>
    (await h.zendeskControl('GET', '/rate-limited')) as {
      total: number;
      by_limit: Record<string, number>;
    };

  it('coalesces the changes waiting for a ticket into one update: one note in order, the newest status', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const events = [
      h.job(
        'incident.status_changed',
        { incidentId, status: 'approval_required' },
        at('2031-01-01T10:00:00Z'),
      ),
      h.job(
        'incident.history_created',
        { incidentId, historyEntry: { message: 'Please approve: registrar is ready.' } },
        at('2031-01-01T10:00:00.200Z'),
      ),
      h.job('incident.takedown_updated', { incidentId }, at('2031-01-01T10:00:01Z')),
      h.job('incident.takedown_updated', { incidentId }, at('2031-01-01T10:00:02Z')),
      h.job(
        'incident.status_changed',
        { incidentId, status: 'takedown_in_progress' },
        at('2031-01-01T10:00:03Z'),
      ),
    ];
    for (const job of events)
      expect((await handleIncidentEvent(deps(), h.context(), job)).status).toBe('applied');
    expect(await h.notes(ticketId)).toHaveLength(0); // recorded, not written

    h.zendeskCalls.length = 0;
    const result = await pass();
    expect(result).toMatchObject({ written: 1, requests: 1 });
    expect(h.zendeskCalls).toEqual([`PUT /api/v2/tickets/${ticketId}.json`]);
    const [note, ...others] = await h.notes(ticketId);
    expect(others).toHaveLength(0);
    // the events it applies are named by the update's audit, not by the note
    expect(await h.eventWrites(ticketId)).toEqual([events.map((job) => job.event.id)]);
    expect(note).not.toMatch(/evt_|ref |incident /);
    // the status change and its history entry read as one change; takedown updates that found
    // nothing new (no listing, attempt or snapshot since the link) add no line
    expect(note).toContain(
      '• Status: Approval required\n  The takedown is waiting for your approval.\n  Analyst: Please approve: registrar is ready.\n  Next step: approve the takedown',
    );
    expect(note).not.toContain('Takedown progress');
    expect(note!.indexOf('Approval required')).toBeLessThan(note!.indexOf('Takedown in progress'));
    expect(h.fieldValue(await h.ticket(ticketId), h.seed.statusFieldId)).toBe(
      'incident_status_takedown_in_progress',
    );
    expect((await pass()).nextAt).toBeNull();
  });

  it('writes the Status drop-down option of a status, and leaves the field alone for a status it has no option for', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const apply = async (status: string, iso: string) =>
      expect(
        (
          await handleIncidentEvent(
            deps(),
            h.context(),
            h.job('incident.status_changed', { incidentId, status }, at(iso)),
          )
        ).status,
      ).toBe('applied');
    await apply('approval_required', '2033-01-01T10:00:00Z');
    expect(await pass()).toMatchObject({ written: 1 });
    let ticket = await h.ticket(ticketId);
    expect(h.fieldValue(ticket, h.seed.statusFieldId)).toBe('incident_status_approval_required');
    expect(ticket.tags).toContain('incident_status_approval_required');

    // A status this version does not know (read tolerantly): Zendesk would refuse it as a
    // drop-down value (422) and with it the note, so the note goes and the field keeps its value.
    await apply('legal_hold_review', '2033-01-01T10:00:05Z');
    const unknown = await pass();
    expect(unknown).toMatchObject({ written: 1 });
    ticket = await h.ticket(ticketId);
    expect(h.fieldValue(ticket, h.seed.statusFieldId)).toBe('incident_status_approval_required');
    const notes = await h.notes(ticketId);
    expect(notes).toHaveLength(2);
    expect(notes.at(-1)).toContain('legal_hold_review');
  });

  it('a Status value the drop-down refuses (its option removed) goes without the field, alone and in bulk', async () => {
    const all = STATUS_FIELD_OPTIONS.map((option) => ({ ...option }));
    await h.zendesk.ticketFields.update(h.seed.statusFieldId, {
      custom_field_options: all.filter((o) => o.value !== 'incident_status_blocklisted'),
    });
    try {
      const status = (incidentId: string, value: string, iso: string) =>
        handleIncidentEvent(
          deps(),
          h.context(),
          h.job('incident.status_changed', { incidentId, status: value }, at(iso)),
        );
      // One ticket: its update is refused (422 naming the field), then goes without it.
      const one = await h.linkedTicket();
      await status(one.incidentId, 'blocklisted', '2034-01-01T10:00:00Z');
      h.zendeskCalls.length = 0;
      expect(await pass()).toMatchObject({ written: 1 });
      expect(h.zendeskCalls).toEqual([
        `PUT /api/v2/tickets/${one.ticketId}.json`,
        `PUT /api/v2/tickets/${one.ticketId}.json`,
      ]);
      expect(h.fieldValue(await h.ticket(one.ticketId), h.seed.statusFieldId)).toBeNull();
      expect(await h.notes(one.ticketId)).toHaveLength(1);

      // Two tickets in one update_many: the refused one is written alone without the field,
      // the other keeps its Status value.
      const [a, b] = [await h.linkedTicket(), await h.linkedTicket()];
      await status(a.incidentId, 'blocklisted', '2034-01-01T10:01:00Z');
      await status(b.incidentId, 'case_building', '2034-01-01T10:01:00Z');
      expect(await pass()).toMatchObject({ written: 0, requests: 1 }); // queued
      expect(await settled()).toBe(2);
      expect(h.fieldValue(await h.ticket(a.ticketId), h.seed.statusFieldId)).toBeNull();
      expect(await h.notes(a.ticketId)).toHaveLength(1);
      expect(h.fieldValue(await h.ticket(b.ticketId), h.seed.statusFieldId)).toBe(
        'incident_status_case_building',
      );
      const failures = await h.db.prisma.syncFailure.count({
        where: { ticketId: { in: [BigInt(one.ticketId), BigInt(a.ticketId)] } },
      });
      expect(failures).toBe(0);
    } finally {
      await h.zendesk.ticketFields.update(h.seed.statusFieldId, { custom_field_options: all });
    }
  });

  it('holds a change for its companion: nothing is written before the hold, then one note', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    let clock = new Date('2032-01-01T00:00:00Z');
    const now = () => clock;
    const d = deps({ now, writeHoldMs: 2_500 });
    await handleIncidentEvent(
      d,
      h.context(),
      h.job('incident.status_changed', { incidentId, status: 'action_required' }),
    );
    expect((await pass({ now, ignoreReadyAt: false })).written).toBe(0);
    clock = new Date(clock.getTime() + 1_000);
    await handleIncidentEvent(
      d,
      h.context(),
      h.job('incident.history_created', {
        incidentId,
        historyEntry: { message: 'Send the trademark certificate.' },
      }),
    );
    // the status change's hold is over at the account's next write moment (write-moment.ts); the
    // history entry, recorded within its hold, goes with it
    const waiting = await h.db.prisma.pendingTicketChange.findMany({
      where: { accountId: h.accountId, ticketId: BigInt(ticketId), writtenAt: null },
    });
    expect(waiting).toHaveLength(2);
    const readyAt = Math.min(...waiting.map((change) => change.readyAt.getTime()));
    expect(readyAt).toBeGreaterThanOrEqual(Date.parse('2032-01-01T00:00:00Z') + 2_500);
    clock = new Date(readyAt - 1);
    expect((await pass({ now, ignoreReadyAt: false })).written).toBe(0);
    clock = new Date(readyAt);
    expect((await pass({ now, ignoreReadyAt: false })).written).toBe(1);
    const notes = await h.notes(ticketId);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('Status: Action required');
    expect(notes[0]).toContain('Analyst: Send the trademark certificate.');
  });

  it('writes several waiting tickets with one update_many and follows the job to its per-ticket results', async () => {
    const tickets = [await h.linkedTicket(), await h.linkedTicket(), await h.linkedTicket()];
    // one of them is closed: Zendesk refuses it in the job's results, the others are written
    await h.zendesk.tickets.update(tickets[2]!.ticketId, { status: 'closed' });
    for (const { incidentId } of tickets)
      await handleIncidentEvent(
        deps(),
        h.context(),
        h.job('incident.status_changed', { incidentId, status: 'case_building' }),
      );
    h.zendeskCalls.length = 0;
    // the pass queues the job and waits for nothing; later passes read its status
    expect(await pass()).toMatchObject({ written: 0, requests: 1 });
    expect(h.zendeskCalls).toEqual(['PUT /api/v2/tickets/update_many.json']);
    // two updated, the closed one's note in a follow-up
    expect(await settled()).toBe(3);
    expect(h.zendeskCalls.filter((call) => call.startsWith('PUT'))).toEqual([
      'PUT /api/v2/tickets/update_many.json',
    ]);
    expect(h.zendeskCalls.some((call) => call.startsWith('GET /api/v2/job_statuses/'))).toBe(true);
    // the per-ticket results said what landed: no ticket's comments were read to find out
    expect(h.zendeskCalls.filter((call) => call.endsWith('/comments.json'))).toEqual([]);
    for (const { ticketId } of tickets.slice(0, 2)) {
      expect(await h.notes(ticketId)).toHaveLength(1);
      expect(h.fieldValue(await h.ticket(ticketId), h.seed.statusFieldId)).toBe(
        'incident_status_case_building',
      );
    }
    // the closed ticket's note went to a follow-up, not to a dead letter
    const link = await h.db.prisma.incidentLink.findFirstOrThrow({
      where: { accountId: h.accountId, incidentId: tickets[2]!.incidentId },
    });
    expect(link.ticketId).not.toBe(BigInt(tickets[2]!.ticketId));
    const followUp = (await h.zendesk.tickets.show(Number(link.ticketId))) as TTicket & {
      via?: { source?: { rel?: string; from?: { ticket_id?: number } } };
    };
    expect(followUp.via?.source).toMatchObject({
      rel: 'follow_up',
      from: { ticket_id: tickets[2]!.ticketId },
    });
    expect(
      await h.db.prisma.syncFailure.count({
        where: { accountId: h.accountId, ticketId: BigInt(tickets[2]!.ticketId) },
      }),
    ).toBe(0);
    expect((await pass()).nextAt).toBeNull(); // nothing left, the refused change not retried
  });

  it('an action_required for a closed ticket opens one follow-up, moves the link, and later events land there', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    await h.zendesk.tickets.update(ticketId, { status: 'closed' });
    const request = h.job(
      'incident.action_required',
      { incidentId, status: 'action_required', waitForClient: 'Send the trademark certificate.' },
      at('2031-02-01T10:00:00Z'),
    );
    expect((await handleIncidentEvent(deps(), h.context(), request)).status).toBe('applied');
    await pass();
    const link = await h.db.prisma.incidentLink.findFirstOrThrow({
      where: { accountId: h.accountId, incidentId },
    });
    const followUpId = Number(link.ticketId);
    expect(followUpId).not.toBe(ticketId);
    const closed = await h.ticket(ticketId);
    const followUp = (await h.ticket(followUpId)) as TTicket & {
      via?: { source?: { rel?: string; from?: { ticket_id?: number } } };
    };
    expect(followUp.via?.source).toMatchObject({
      rel: 'follow_up',
      from: { ticket_id: ticketId },
    });
    expect(followUp.requester_id).toBe(closed.requester_id);
    expect(followUp.tags).toContain('incident_linked');
    expect(h.fieldValue(followUp, h.seed.incidentFieldId)).toBe(
      h.fieldValue(closed, h.seed.incidentFieldId),
    );
    const [note] = await h.notes(followUpId);
    expect(note).toContain('Send the trademark certificate.');
    expect(
      await h.db.prisma.pendingTicketChange.count({
        where: { accountId: h.accountId, incidentId, writtenAt: null },
      }),
    ).toBe(0);

    // redelivery of the same event, and a crash that left the link on the closed ticket: one follow-up
    await handleIncidentEvent(deps(), h.context(), request);
    await pass();
    await h.db.prisma.incidentLink.update({
      where: { id: link.id },
      data: { ticketId: BigInt(ticketId) },
    });
    await handleIncidentEvent(
      deps(),
      h.context(),
      h.job(
        'incident.history_created',
        { incidentId, historyEntry: { message: 'Reminder: certificate.' } },
        at('2031-02-01T10:05:00Z'),
      ),
    );
    await pass();
    const relinked = await h.db.prisma.incidentLink.findFirstOrThrow({
      where: { accountId: h.accountId, incidentId },
    });
    expect(Number(relinked.ticketId)).toBe(followUpId); // the same follow-up, by its idempotency key

    await handleIncidentEvent(
      deps(),
      h.context(),
      h.job(
        'incident.status_changed',
        { incidentId, status: 'takedown_in_progress' },
        at('2031-02-01T11:00:00Z'),
      ),
    );
    await pass();
    expect(h.fieldValue(await h.ticket(followUpId), h.seed.statusFieldId)).toBe(
      'incident_status_takedown_in_progress',
    );
    expect(
      await h.db.prisma.syncFailure.count({ where: { accountId: h.accountId, incidentId } }),
    ).toBe(0);
  });

  it('a 429 pauses the whole account for its Retry-After and loses nothing', async () => {
    const a = await h.linkedTicket();
    const b = await h.linkedTicket();
    await h.zendeskControl('DELETE', '/rate-limited');
    // Zendesk allows one Update Ticket request per 2 s here; the writer's own budget does not know
    await h.zendeskControl('PUT', '/rate-limit', {
      update_ticket_per_minute: 1,
      update_ticket_window_ms: 2_000,
    });
    try {
      const generous = { accountPerMinute: 1_000, ticketPerTenMinutes: 1_000 };
      await handleIncidentEvent(
        deps(),
        h.context(),
        h.job('incident.status_changed', { incidentId: a.incidentId, status: 'case_building' }),
      );
      expect((await pass({ limits: generous })).written).toBe(1);
      await handleIncidentEvent(
        deps(),
        h.context(),
        h.job('incident.status_changed', { incidentId: b.incidentId, status: 'blocklisted' }),
      );
      const refused = await pass({ limits: generous });
      expect(refused.written).toBe(0);
      expect((await rateLimited()).by_limit.update_ticket).toBe(1);
      const pause = await h.db.prisma.ticketWritePause.findUniqueOrThrow({
        where: { accountId: h.accountId },
      });
      expect(pause.rateLimitedCount).toBe(1);
      expect(pause.pausedUntil.getTime()).toBeGreaterThan(Date.now());
      // while paused, no instance sends anything
      h.zendeskCalls.length = 0;
      expect((await pass({ limits: generous })).nextAt?.getTime()).toBe(
        pause.pausedUntil.getTime(),
      );
      expect(h.zendeskCalls).toEqual([]);
      expect(
        await h.db.prisma.syncFailure.count({
          where: { accountId: h.accountId, ticketId: BigInt(b.ticketId) },
        }),
      ).toBe(0);

      await eventually('the pause over, the change written', async () => {
        if (Date.now() < pause.pausedUntil.getTime()) return undefined;
        await pass({ limits: generous });
        return (await h.notes(b.ticketId)).length === 1 ? true : undefined;
      });
      expect(h.fieldValue(await h.ticket(b.ticketId), h.seed.statusFieldId)).toBe(
        'incident_status_blocklisted',
      );
      expect((await rateLimited()).by_limit.update_ticket).toBe(1);
    } finally {
      await h.zendeskControl('PUT', '/rate-limit', { update_ticket_per_minute: 100 });
    }
  });

  it("a ticket's own 429 (its 10-minute limit per user) holds that ticket only, never the account", async () => {
    const a = await h.linkedTicket();
    const b = await h.linkedTicket();
    await h.zendeskControl('DELETE', '/rate-limited');
    // Zendesk takes one update per ticket per user in 10 minutes here; the writer's own budget does not know
    await h.zendeskControl('PUT', '/rate-limit', {
      ticket_updates_per_user: 1,
      ticket_updates_window_ms: 600_000,
    });
    try {
      const generous = { accountPerMinute: 1_000, ticketPerTenMinutes: 1_000 };
      const clock = new Date();
      const now = () => clock;
      const event = (incidentId: string, status: string) =>
        handleIncidentEvent(
          deps({ now, writeHoldMs: 0 }),
          h.context(),
          h.job('incident.status_changed', { incidentId, status }),
        );
      await event(a.incidentId, 'case_building');
      expect((await pass({ limits: generous, now, ignoreReadyAt: false })).written).toBe(1);
      await event(a.incidentId, 'blocklisted');
      expect((await pass({ limits: generous, now, ignoreReadyAt: false })).written).toBe(0);
      expect((await rateLimited()).by_limit.ticket_updates_per_user).toBe(1);
      // the account is not paused: another ticket's change goes out at once
      expect(
        await h.db.prisma.ticketWritePause.count({
          where: { accountId: h.accountId, pausedUntil: { gt: clock } },
        }),
      ).toBe(0);
      await event(b.incidentId, 'case_building');
      expect((await pass({ limits: generous, now, ignoreReadyAt: false })).written).toBe(1);
      expect(await h.notes(b.ticketId)).toHaveLength(1);
      // the held ticket waits for its Retry-After (beyond a minute), and loses nothing
      const held = await h.db.prisma.pendingTicketChange.findMany({
        where: { accountId: h.accountId, ticketId: BigInt(a.ticketId), writtenAt: null },
      });
      expect(held).toHaveLength(1);
      expect(held[0]!.readyAt.getTime()).toBeGreaterThan(clock.getTime() + 60_000);
      expect((await rateLimited()).by_limit.ticket_updates_per_user).toBe(1);
    } finally {
      await h.zendeskControl('PUT', '/rate-limit', {
        ticket_updates_per_user: 30,
        ticket_updates_window_ms: 600_000,
      });
      // the held change written, so the next test starts with nothing waiting
      await pass();
    }
  });

  it('never races a request still under way: its changes wait out the lease, then the note is looked for, not written again', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    let clock = new Date('2033-01-01T00:00:00Z');
    const now = () => clock;
    await handleIncidentEvent(
      deps({ now, writeHoldMs: 0 }),
      h.context(),
      h.job('incident.status_changed', { incidentId, status: 'case_building' }),
    );
    expect((await pass({ now, ignoreReadyAt: false })).written).toBe(1);
    // the writer's bookkeeping after the request was lost (its database connection dropped),
    // or another instance reads the rows while the first is still waiting for Zendesk
    const where = { accountId: h.accountId, incidentId };
    await h.db.prisma.pendingTicketChange.updateMany({ where, data: { writtenAt: null } });

    h.zendeskCalls.length = 0;
    clock = new Date(clock.getTime() + 1_000);
    const early = await pass({ now, ignoreReadyAt: false });
    expect(early.written).toBe(0);
    expect(early.nextAt!.getTime()).toBeGreaterThan(clock.getTime());
    expect(h.zendeskCalls).toEqual([]); // neither looked for nor written

    clock = new Date(early.nextAt!.getTime() + 1);
    await pass({ now, ignoreReadyAt: false });
    expect(h.zendeskCalls.filter((call) => call.startsWith('PUT'))).toEqual([]);
    expect(await h.notes(ticketId)).toHaveLength(1);
    expect(
      await h.db.prisma.pendingTicketChange.count({ where: { ...where, writtenAt: null } }),
    ).toBe(0);
  });

  /** A fetch that lets the request reach Zendesk and loses its answer. */
  const answerLost: typeof fetch = async (input, init) => {
    await fetch(input, init);
    throw new TypeError('fetch failed');
  };
  const unwritten = (incidentId: string) =>
    h.db.prisma.pendingTicketChange.count({
      where: { accountId: h.accountId, incidentId, writtenAt: null },
    });

  it("finds a write whose answer was lost by its audit's metadata, with no reference in the note, and writes it once", async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const event = h.job('incident.status_changed', { incidentId, status: 'case_building' });
    await handleIncidentEvent(deps(), h.context(), event);
    const lost = await drainAccountOnce(
      { ...h.context(), zendesk: h.zendeskWith(answerLost) },
      h.db,
      { now: () => new Date(), limits: ZENDESK_WRITE_LIMITS, ignoreReadyAt: true },
    );
    expect(lost).toMatchObject({ requests: 1, written: 0 });
    const [note, ...others] = await h.notes(ticketId);
    expect(others).toEqual([]);
    // the reference and the event live in the audit, never in what the agent reads
    expect(note).not.toMatch(/ref |incident-desk ·|evt_|[0-9a-f]{8}-[0-9a-f]{4}-/);
    const row = await h.db.prisma.pendingTicketChange.findFirstOrThrow({
      where: { accountId: h.accountId, incidentId },
    });
    expect(row.writeFoundByNote).toBe(false);
    const audits = await h.zendesk.tickets.audits.list(ticketId);
    expect(audits.getItems().at(-1)?.metadata?.custom).toEqual({
      incident_desk: { ref: row.writeRef, events: [event.event.id] },
    });

    h.zendeskCalls.length = 0;
    await pass();
    expect(h.zendeskCalls).toEqual([`GET /api/v2/tickets/${ticketId}/audits.json`]);
    expect(await h.notes(ticketId)).toHaveLength(1);
    expect(await unwritten(incidentId)).toBe(0);
  });

  it('a write that did not land is written again after its audits were read', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.status_changed', { incidentId, status: 'case_building' }),
    );
    const neverSent: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    await drainAccountOnce({ ...h.context(), zendesk: h.zendeskWith(neverSent) }, h.db, {
      now: () => new Date(),
      limits: ZENDESK_WRITE_LIMITS,
      ignoreReadyAt: true,
    });
    expect(await h.notes(ticketId)).toHaveLength(0);
    h.zendeskCalls.length = 0;
    expect(await pass()).toMatchObject({ written: 1 });
    expect(h.zendeskCalls).toEqual([
      `GET /api/v2/tickets/${ticketId}/audits.json`,
      `PUT /api/v2/tickets/${ticketId}.json`,
    ]);
    expect(await h.notes(ticketId)).toHaveLength(1);
    expect(await h.eventWrites(ticketId)).toHaveLength(1);
  });

  it("failed writes spend none of a ticket's updates: after an outage its changes go out at once", async () => {
    const lone = await h.linkedTicket();
    const pair = [await h.linkedTicket(), await h.linkedTicket()];
    const limits = { accountPerMinute: 90, ticketPerTenMinutes: 2 };
    const tickets = [lone, ...pair].map((linked) => BigInt(linked.ticketId));
    const counted = () =>
      h.db.prisma.ticketWriteLog.count({
        where: { accountId: h.accountId, ticketId: { in: tickets } },
      });
    const change = async (incidentId: string, status: string) =>
      handleIncidentEvent(
        deps({ writeHoldMs: 0 }),
        h.context(),
        h.job('incident.status_changed', { incidentId, status }),
      );
    const minute = () => readBudget(h.db, h.accountId, limits, new Date());
    const freeBefore = (await minute()).accountFree;
    await h.zendeskFault({
      path: '/api/v2/tickets/*',
      method: 'PUT',
      kind: 'error',
      status: 500,
    });
    try {
      // single updates (one ticket waits), then update_many (two wait): every request refused
      await change(lone.incidentId, 'case_building');
      for (let i = 0; i < 4; i += 1)
        expect(await pass({ limits })).toMatchObject({ requests: 1, written: 0 });
      for (const linked of pair) await change(linked.incidentId, 'case_building');
      for (let i = 0; i < 4; i += 1)
        expect(await pass({ limits })).toMatchObject({ requests: 1, written: 0 });
      expect(await counted()).toBe(0);
      // the failed single updates still count in the account's minute
      expect((await minute()).accountFree).toBe(freeBefore - 4);
    } finally {
      await h.clearZendeskFaults();
    }
    // one update_many for the three, once each ticket's audits showed nothing landed
    expect(await pass({ limits })).toMatchObject({ requests: 1 });
    expect(await settled()).toBe(3);
    for (const linked of [lone, ...pair]) expect(await h.notes(linked.ticketId)).toHaveLength(1);
    expect(await counted()).toBe(3);
    // and each ticket still has its second update of the ten minutes
    await change(lone.incidentId, 'blocklisted');
    expect(await pass({ limits })).toMatchObject({ written: 1 });
    expect(await h.notes(lone.ticketId)).toHaveLength(2);
  });

  it("a job item Zendesk refused gives its ticket's update back; the written ones keep theirs", async () => {
    const [a, b] = [await h.linkedTicket(), await h.linkedTicket()];
    const limits = { accountPerMinute: 90, ticketPerTenMinutes: 5 };
    const countedFor = (ticketId: number) =>
      h.db.prisma.ticketWriteLog.count({
        where: { accountId: h.accountId, ticketId: BigInt(ticketId) },
      });
    // Zendesk's own per-ticket limit for b is already spent by another writer
    await h.zendeskControl('PUT', '/rate-limit', { ticket_updates_per_user: 1 });
    try {
      await h.zendesk.tickets.update(b.ticketId, { additional_tags: ['spent'] });
      for (const linked of [a, b])
        await handleIncidentEvent(
          deps({ writeHoldMs: 0 }),
          h.context(),
          h.job('incident.status_changed', {
            incidentId: linked.incidentId,
            status: 'case_building',
          }),
        );
      // passes that keep to the changes' waits: b's refused item is not sent again meanwhile
      await eventually(
        'the update_many job settled',
        async () => {
          await pass({ limits, ignoreReadyAt: false });
          const inFlight = await h.db.prisma.pendingTicketChange.count({
            where: { accountId: h.accountId, writtenAt: null, writeJobId: { not: null } },
          });
          return inFlight === 0 ? true : undefined;
        },
        { intervalMs: 100 },
      );
    } finally {
      await h.zendeskControl('PUT', '/rate-limit', { ticket_updates_per_user: 30 });
    }
    expect(await h.notes(a.ticketId)).toHaveLength(1);
    expect(await h.notes(b.ticketId)).toHaveLength(0);
    expect([await countedFor(a.ticketId), await countedFor(b.ticketId)]).toEqual([1, 0]);
    // Zendesk's limit back: b's change goes, counted once
    expect(await pass({ limits })).toMatchObject({ written: 1 });
    expect(await h.notes(b.ticketId)).toHaveLength(1);
    expect(await countedFor(b.ticketId)).toBe(1);
  });

  it('without the global read scope a write whose answer was lost is found by its note, which carries no reference, and written once', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const narrow = h.context({}, { canReadAudits: false });
    await handleIncidentEvent(
      deps(),
      narrow,
      h.job('incident.status_changed', { incidentId, status: 'case_building' }),
    );
    await drainAccountOnce({ ...narrow, zendesk: h.zendeskWith(answerLost) }, h.db, {
      now: () => new Date(),
      limits: ZENDESK_WRITE_LIMITS,
      ignoreReadyAt: true,
    });
    const row = await h.db.prisma.pendingTicketChange.findFirstOrThrow({
      where: { accountId: h.accountId, incidentId },
    });
    expect(row.writeFoundByNote).toBe(true);
    const [note] = await h.notes(ticketId);
    expect(note).not.toMatch(/ref |incident-desk ·|[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(note).not.toContain(row.writeRef!.replace(/-/g, '').slice(0, 8));

    h.zendeskCalls.length = 0;
    await drainAccountOnce(narrow, h.db, {
      now: () => new Date(),
      limits: ZENDESK_WRITE_LIMITS,
      ignoreReadyAt: true,
    });
    // the note matched: its author is then asked for (the token's own user)
    expect(h.zendeskCalls).toEqual([
      `GET /api/v2/tickets/${ticketId}/comments.json`,
      'GET /api/v2/users/me.json',
    ]);
    expect(await h.notes(ticketId)).toHaveLength(1);
    expect(await unwritten(incidentId)).toBe(0);
  });

  it('without the global read scope a write that did not land is written again after the comments were read', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const narrow = h.context({}, { canReadAudits: false });
    await handleIncidentEvent(
      deps(),
      narrow,
      h.job('incident.status_changed', { incidentId, status: 'case_building' }),
    );
    const neverSent: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    await drainAccountOnce({ ...narrow, zendesk: h.zendeskWith(neverSent) }, h.db, {
      now: () => new Date(),
      limits: ZENDESK_WRITE_LIMITS,
      ignoreReadyAt: true,
    });
    expect(await h.notes(ticketId)).toHaveLength(0);
    h.zendeskCalls.length = 0;
    expect(
      await drainAccountOnce(narrow, h.db, {
        now: () => new Date(),
        limits: ZENDESK_WRITE_LIMITS,
        ignoreReadyAt: true,
      }),
    ).toMatchObject({ written: 1 });
    expect(h.zendeskCalls).toEqual([
      `GET /api/v2/tickets/${ticketId}/comments.json`,
      `PUT /api/v2/tickets/${ticketId}.json`,
    ]);
    expect(await h.notes(ticketId)).toHaveLength(1);
    expect(await h.eventWrites(ticketId)).toHaveLength(1);
    expect(await unwritten(incidentId)).toBe(0);
  });

  it('a write only its audit names waits, never written again, while the audits cannot be read (403)', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    await handleIncidentEvent(
      deps(),
      h.context(),
      h.job('incident.status_changed', { incidentId, status: 'case_building' }),
    );
    await drainAccountOnce({ ...h.context(), zendesk: h.zendeskWith(answerLost) }, h.db, {
      now: () => new Date(),
      limits: ZENDESK_WRITE_LIMITS,
      ignoreReadyAt: true,
    });
    // the token lost the global read scope since: audits answer 403
    const refused: typeof fetch = async (input, init) =>
      String(input instanceof Request ? input.url : input).includes('/audits')
        ? new Response(JSON.stringify({ error: 'Forbidden' }), { status: 403 })
        : fetch(input, init);
    const failures: unknown[] = [];
    const narrow = {
      ...h.context({}, { canReadAudits: false }),
      zendesk: h.zendeskWith(refused),
    };
    const result = await drainAccountOnce(narrow, h.db, {
      now: () => new Date(),
      limits: ZENDESK_WRITE_LIMITS,
      ignoreReadyAt: true,
      onWriteFailure: (_account, error) => failures.push(error),
    });
    expect(result.requests).toBe(0);
    expect(failures).toHaveLength(1);
    expect(await h.notes(ticketId)).toHaveLength(1);
    expect(await unwritten(incidentId)).toBe(1);
  });

  it("a bulk write's notes carry no reference; their audits name each ticket's events", async () => {
    const tickets = [await h.linkedTicket(), await h.linkedTicket()];
    const events = [];
    for (const { incidentId } of tickets) {
      const job = h.job('incident.status_changed', { incidentId, status: 'case_building' });
      events.push(job.event.id);
      await handleIncidentEvent(deps(), h.context(), job);
    }
    expect(await pass()).toMatchObject({ requests: 1 });
    await settled();
    for (const [i, { ticketId }] of tickets.entries()) {
      const [note] = await h.notes(ticketId);
      expect(note).not.toMatch(/ref |incident-desk ·|[0-9a-f]{8}-[0-9a-f]{4}-/);
      expect(await h.eventWrites(ticketId)).toEqual([[events[i]]]);
    }
  });

  it('while the update_many job that carries changes is queued or working, they are not written again', async () => {
    const tickets = [await h.linkedTicket(), await h.linkedTicket()];
    for (const { incidentId } of tickets)
      await handleIncidentEvent(
        deps(),
        h.context(),
        h.job('incident.status_changed', { incidentId, status: 'blocklisted' }),
      );
    expect(await pass()).toMatchObject({ written: 0, requests: 1 });
    const rows = await h.db.prisma.pendingTicketChange.findMany({
      where: { accountId: h.accountId, incidentId: { in: tickets.map((t) => t.incidentId) } },
    });
    expect(rows.every((row) => row.writeJobId !== null && row.writtenAt === null)).toBe(true);
    // as if the job were still running at Zendesk when the next pass came by
    const ctx = h.context();
    const asked: string[] = [];
    const stillWorking = Object.create(ctx.zendesk.jobStatuses, {
      show: {
        value: async (id: string) => {
          asked.push(id);
          return { id, status: 'working' };
        },
      },
    }) as typeof ctx.zendesk.jobStatuses;
    const zendesk = Object.create(ctx.zendesk, {
      jobStatuses: { value: stillWorking },
    }) as typeof ctx.zendesk;
    h.zendeskCalls.length = 0;
    const result = await drainAccountOnce({ ...ctx, zendesk }, h.db, {
      now: () => new Date(),
      limits: ZENDESK_WRITE_LIMITS,
      ignoreReadyAt: true,
    });
    expect(result.written).toBe(0);
    expect(h.zendeskCalls).toEqual([]);
    // both tickets went in one job: Zendesk is asked about it once in the pass
    expect(asked).toEqual([rows[0]!.writeJobId]);
    // the next look at the job comes later: until then a pass leaves the changes alone
    const early = await drainAccountOnce({ ...ctx, zendesk }, h.db, {
      now: () => new Date(),
      limits: ZENDESK_WRITE_LIMITS,
    });
    expect(early.nextAt!.getTime()).toBeGreaterThan(Date.now() - 100);
    expect(asked).toHaveLength(1);
    // finished, the job's results are recorded and nothing is sent again
    await settled();
    expect(h.zendeskCalls.filter((call) => call.startsWith('PUT'))).toEqual([]);
    for (const { ticketId } of tickets) expect(await h.notes(ticketId)).toHaveLength(1);
    expect(
      await h.db.prisma.pendingTicketChange.count({
        where: { id: { in: rows.map((row) => row.id) }, writtenAt: null },
      }),
    ).toBe(0);
  });

  it('keeps to the per-ticket budget across two writers on one database, and leaves the rest waiting', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    await h.zendeskControl('DELETE', '/rate-limited');
    const limits = { accountPerMinute: 90, ticketPerTenMinutes: 3 };
    // a second handle on the same database stands for a second instance (PGlite: one process)
    const second: TDatabase =
      h.db.backend === 'postgres'
        ? await openDatabase({ databaseUrl: h.db.connectionString })
        : h.db;
    const instances = await Promise.all([h.db, second].map((db) => startInstanceLiveness({ db })));
    const writers = [h.db, second].map((db, i) =>
      startTicketWriter({
        db,
        contextFor: async () => h.context(),
        instance: instances[i]!,
        limits,
        sweepIntervalMs: 50,
        minPassIntervalMs: 50,
      }),
    );
    try {
      for (let i = 0; i < 6; i += 1) {
        await handleIncidentEvent(
          deps({ writeHoldMs: 0, writer: writers[i % 2] }),
          h.context(),
          h.job(
            'incident.status_changed',
            { incidentId, status: i % 2 ? 'takedown_in_progress' : 'case_building' },
            at(`2033-01-01T00:00:0${i}Z`),
          ),
        );
        await eventually('written or waiting', async () => {
          const waiting = await h.db.prisma.pendingTicketChange.count({
            where: { accountId: h.accountId, ticketId: BigInt(ticketId), writtenAt: null },
          });
          const sent = await h.db.prisma.ticketWriteLog.count({
            where: { accountId: h.accountId, ticketId: BigInt(ticketId) },
          });
          return waiting === 0 || sent >= 3 ? true : undefined;
        });
      }
      // stopped: nothing more is written behind the counts below
      await Promise.all(writers.map((w) => w.stop()));
      expect(
        await h.db.prisma.ticketWriteLog.count({
          where: { accountId: h.accountId, ticketId: BigInt(ticketId) },
        }),
      ).toBe(3);
      expect(await h.notes(ticketId)).toHaveLength(3);
      // the rest wait for the budget, recorded, not dropped
      expect(
        await h.db.prisma.pendingTicketChange.count({
          where: {
            accountId: h.accountId,
            ticketId: BigInt(ticketId),
            writtenAt: null,
            failedReason: null,
          },
        }),
      ).toBe(3);
      expect((await rateLimited()).total).toBe(0);
    } finally {
      await Promise.all(writers.map((w) => w.stop()));
      await Promise.all(instances.map((instance) => instance.stop()));
      if (second !== h.db) await second.close();
      await h.db.prisma.pendingTicketChange.updateMany({
        where: { accountId: h.accountId, ticketId: BigInt(ticketId), writtenAt: null },
        data: { failedReason: 'test over' },
      });
    }
  });

  it('never moves the status backwards when an older change waits beside a newer one', async () => {
    const { incidentId, ticketId } = await h.linkedTicket();
    const ctx = h.context({ solveOnTakedownSuccess: true });
    await handleIncidentEvent(
      deps(),
      ctx,
      h.job(
        'incident.status_changed',
        { incidentId, status: 'takedown_success' },
        at('2034-01-01T10:00:00Z'),
      ),
    );
    await handleIncidentEvent(
      deps(),
      ctx,
      h.job(
        'incident.status_changed',
        { incidentId, status: 'takedown_in_progress' },
        at('2034-01-01T09:00:00Z'),
      ),
    );
    await handleIncidentEvent(
      deps(),
      ctx,
      h.job(
        'incident.action_required',
        { incidentId, waitForClient: 'Old request' },
        at('2034-01-01T08:00:00Z'),
      ),
    );
    await drainAccountOnce(ctx, h.db, {
      now: () => new Date(),
      limits: ZENDESK_WRITE_LIMITS,
      ignoreReadyAt: true,
    });
    const ticket = await h.ticket(ticketId);
    expect(h.fieldValue(ticket, h.seed.statusFieldId)).toBe('incident_status_takedown_success');
    expect(ticket.status).toBe('solved');
    const [note] = await h.notes(ticketId);
    expect(note).toContain('the Status field stays Taken down');
    expect(note).toContain('the ticket status was left as it is');
  });
});

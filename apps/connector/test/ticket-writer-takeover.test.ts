// Writers on several instances: two never write one account at once, and when the instance that
// was writing an account dies (its heartbeat stops), another takes the account over within seconds
// and settles what the dead one was sending without writing anything twice: a note that landed is
// found by its reference, a queued update_many by its job's status, and only what never reached
// Zendesk is sent again. The dead instance is simulated: its heartbeat row stops being renewed.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from '@incident-desk/db';
import { handleIncidentEvent } from '../src/sync/incident-events/handle-incident-event';
import type { SyncDeps } from '../src/sync/sync-deps';
import { drainAccountOnce } from '../src/sync/ticket-writes/drain-account';
import type { DrainOptions } from '../src/sync/ticket-writes/drain-options';
import {
  startTicketWriter,
  type TicketWriterService,
} from '../src/sync/ticket-writes/ticket-writer-service';
import { ZENDESK_WRITE_LIMITS } from '../src/sync/ticket-writes/write-budget';
import { takeWriterLease } from '../src/sync/ticket-writes/writer-lease';
import { startInstanceLiveness, type InstanceLiveness } from '../src/worker/instance-liveness';
import { startHarness } from './sync-incident-harness';
import { eventually } from './support/eventually';
import { backends } from './support/test-database';
import { startedForTests } from './support/started-for-tests';

describe.each(backends)('ticket writers across instances on %s', (backend) => {
  const h = startedForTests(() => startHarness(backend));
  const deps = (extra: Partial<SyncDeps> = {}): SyncDeps => ({
    db: h.db,
    unlinkedWaitMs: 10,
    writeHoldMs: 0,
    writer: { signal: () => undefined },
    ...extra,
  });
  const statusChange = async (incidentId: string, status = 'case_building') => {
    const job = h.job('incident.status_changed', { incidentId, status });
    expect((await handleIncidentEvent(deps(), h.context(), job)).status).toBe('applied');
    return String(job.event.id);
  };
  const unwritten = () =>
    h.db.prisma.pendingTicketChange.count({
      where: { accountId: h.accountId, writtenAt: null, failedReason: null },
    });

  it('takes over the account of a dead instance within seconds and settles what it was sending, writing nothing twice', async () => {
    // Instance X: registered, then holding the account's lease and sending three ways.
    const x = randomUUID();
    const started = new Date();
    await h.db.prisma.connectorInstance.create({
      data: { id: x, startedAt: started, heartbeatAt: started },
    });
    const lease = await takeWriterLease(h.db, {
      accountId: h.accountId,
      holder: x,
      now: new Date(),
      aliveCutoff: new Date(Date.now() - 10_000),
    });
    expect(lease.held).toBe(true);
    const asX = (fetchImpl: typeof fetch, extra: Partial<DrainOptions> = {}) =>
      drainAccountOnce({ ...h.context(), zendesk: h.zendeskWith(fetchImpl) }, h.db, {
        now: () => new Date(),
        limits: ZENDESK_WRITE_LIMITS,
        // a live X would wait a minute before looking again: only its death frees them sooner
        unsureRetryMs: 60_000,
        jobPollIntervalMs: 60_000,
        writer: { instanceId: x, aliveCutoff: () => new Date(Date.now() - 10_000) },
        ...extra,
      });

    // 1. X's update landed, but X never heard the answer
    const landed = await h.linkedTicket();
    const landedEvent = await statusChange(landed.incidentId);
    const answerLost: typeof fetch = async (input, init) => {
      await fetch(input, init);
      throw new TypeError('fetch failed');
    };
    expect(await asX(answerLost)).toMatchObject({ requests: 1, written: 0 });
    expect(await h.notes(landed.ticketId)).toHaveLength(1);

    // 2. X's update never reached Zendesk
    const lost = await h.linkedTicket();
    const lostEvent = await statusChange(lost.incidentId);
    const neverSent: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    expect(await asX(neverSent)).toMatchObject({ requests: 1, written: 0 });
    expect(await h.notes(lost.ticketId)).toHaveLength(0);

    // 3. X queued an update_many for two tickets and recorded the job
    const bulk = [await h.linkedTicket(), await h.linkedTicket()];
    const bulkEvents = [
      await statusChange(bulk[0]!.incidentId),
      await statusChange(bulk[1]!.incidentId),
    ];
    expect(await asX(fetch)).toMatchObject({ requests: 1, written: 0 });
    const queued = await h.db.prisma.pendingTicketChange.findMany({
      where: { accountId: h.accountId, writtenAt: null, writeJobId: { not: null } },
    });
    expect(queued.map((row) => row.writeHolder)).toEqual([x, x]);

    // X's leases (the account's, and its changes' wait) outlast the test: only its death can
    // free them for B
    const later = new Date(Date.now() + 3_600_000);
    await h.db.prisma.ticketWriterLease.updateMany({
      where: { holder: x },
      data: { expiresAt: later },
    });
    await h.db.prisma.pendingTicketChange.updateMany({
      where: { writeHolder: x, writtenAt: null },
      data: { readyAt: later },
    });
    // X dies: its heartbeat stops. Instance B starts writing.
    await h.db.prisma.connectorInstance.update({
      where: { id: x },
      data: { heartbeatAt: new Date(Date.now() - 60_000) },
    });
    const logged: string[] = [];
    const takeovers: string[] = [];
    const liveness = await startInstanceLiveness({ db: h.db });
    h.zendeskCalls.length = 0;
    const writer = startTicketWriter({
      db: h.db,
      contextFor: async () => h.context(),
      instance: liveness,
      sweepIntervalMs: 100,
      minPassIntervalMs: 100,
      log: (message) => logged.push(message),
      onTakeover: (kind) => takeovers.push(kind),
    });
    try {
      let left = -1;
      await eventually(
        'every change X was sending settled',
        async () => ((left = await unwritten()) === 0 ? true : undefined),
        { intervalMs: 100, progress: () => left },
      );
      // only the update that never reached Zendesk was sent again
      expect(h.zendeskCalls.filter((call) => call.startsWith('PUT'))).toEqual([
        `PUT /api/v2/tickets/${lost.ticketId}.json`,
      ]);
      for (const [ticketId, eventId] of [
        [landed.ticketId, landedEvent],
        [lost.ticketId, lostEvent],
        [bulk[0]!.ticketId, bulkEvents[0]!],
        [bulk[1]!.ticketId, bulkEvents[1]!],
      ] as const) {
        const notes = await h.notes(ticketId);
        expect(notes, `ticket ${ticketId}`).toHaveLength(1);
        expect(await h.eventWrites(ticketId)).toEqual([[eventId]]);
      }
      expect(logged).toContain(
        `took over writer for account ${h.accountId} from dead instance ${x}`,
      );
      expect(logged).toContain(
        `resumed 4 changes in flight of dead instance ${x} (account ${h.accountId})`,
      );
      expect(takeovers).toEqual(['ticket_writer', 'changes_in_flight']);
    } finally {
      await writer.stop();
      await liveness.stop();
    }
    // nothing held by B once stopped
    expect(
      await h.db.prisma.ticketWriterLease.count({ where: { holder: liveness.instanceId } }),
    ).toBe(0);
  });

  it('an account whose lease ran out while its live holder was idle changes hands quietly', async () => {
    const x = await startInstanceLiveness({ db: h.db });
    await takeWriterLease(h.db, {
      accountId: h.accountId,
      holder: x.instanceId,
      now: new Date(Date.now() - 20_000),
      aliveCutoff: new Date(Date.now() - 30_000),
    });
    const { incidentId, ticketId } = await h.linkedTicket();
    await statusChange(incidentId);
    const logged: string[] = [];
    const liveness = await startInstanceLiveness({ db: h.db });
    const writer = startTicketWriter({
      db: h.db,
      contextFor: async () => h.context(),
      instance: liveness,
      sweepIntervalMs: 100,
      minPassIntervalMs: 100,
      log: (message) => logged.push(message),
    });
    try {
      await eventually('written', async () => ((await unwritten()) === 0 ? true : undefined));
      expect(await h.notes(ticketId)).toHaveLength(1);
      expect(logged.filter((line) => /took over|resumed/.test(line))).toEqual([]);
    } finally {
      await writer.stop();
      await liveness.stop();
      await x.stop();
    }
  });

  it('two writers never write one account at once, and write each change once', async () => {
    // a second handle on the same database stands for a second instance (PGlite: one process)
    const second: TDatabase =
      h.db.backend === 'postgres'
        ? await openDatabase({ databaseUrl: h.db.connectionString, poolSize: 4 })
        : h.db;
    let inFlight = 0;
    let mostAtOnce = 0;
    const counting: typeof fetch = async (input, init) => {
      const write = init?.method === 'PUT';
      if (write) mostAtOnce = Math.max(mostAtOnce, (inFlight += 1));
      try {
        // slow enough that two writers would overlap if both wrote the account
        if (write) await new Promise((resolve) => setTimeout(resolve, 30));
        return await fetch(input, init);
      } finally {
        if (write) inFlight -= 1;
      }
    };
    const instances: InstanceLiveness[] = [];
    const writers: TicketWriterService[] = [];
    for (const db of [h.db, second]) {
      const liveness = await startInstanceLiveness({ db });
      instances.push(liveness);
      writers.push(
        startTicketWriter({
          db,
          contextFor: async () => ({ ...h.context(), zendesk: h.zendeskWith(counting) }),
          instance: liveness,
          limits: { accountPerMinute: 1_000, ticketPerTenMinutes: 1_000 },
          sweepIntervalMs: 50,
          minPassIntervalMs: 20,
        }),
      );
    }
    try {
      const tickets = await Promise.all(Array.from({ length: 5 }, () => h.linkedTicket()));
      const events: { ticketId: number; eventId: string }[] = [];
      for (let round = 0; round < 4; round += 1) {
        for (const [i, { incidentId, ticketId }] of tickets.entries()) {
          const job = h.job('incident.history_created', {
            incidentId,
            historyEntry: { message: `Round ${round} on ticket ${i}.` },
          });
          // each change signals the writer of the instance that recorded it
          await handleIncidentEvent(deps({ writer: writers[i % 2] }), h.context(), job);
          events.push({ ticketId, eventId: String(job.event.id) });
        }
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      await eventually('every change written', async () =>
        (await unwritten()) === 0 ? true : undefined,
      );
      expect(mostAtOnce).toBe(1);
      for (const { ticketId } of tickets) {
        const refs = (await h.eventWrites(ticketId)).flat();
        const expected = events.filter((e) => e.ticketId === ticketId).map((e) => e.eventId);
        expect(refs.sort()).toEqual(expected.sort());
      }
    } finally {
      await Promise.all(writers.map((writer) => writer.stop()));
      await Promise.all(instances.map((liveness) => liveness.stop()));
      if (second !== h.db) await second.close();
    }
  });
});

// Fifty accounts with changes waiting on ONE instance: the writers take turns under their cap and
// hold no connection between passes, so the database stays available to everything else. /readyz
// (the real readiness route, on the same database handle as the writers) answers ready throughout,
// no query waits out the acquire timeout, and every change is written once. Zendesk answers each
// request slowly, as it does under load. How fast /readyz answers meanwhile is a benchmark's
// figure, not this test's.
import type { AddressInfo } from 'node:net';
import { writeHealthReader } from '../src/sync/ticket-writes/write-health-report';
import { randomUUID } from 'node:crypto';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, openDatabase, type PgBoss, type TDatabase } from '@incident-desk/db';
import { operationsRouter } from '../src/http/operations-routes';
import { createLogger } from '../src/log/logger';
import { createConnectorMetrics } from '../src/metrics/connector-metrics';
import { recordTicketChange } from '../src/sync/ticket-writes/record-ticket-change';
import { startTicketWriter } from '../src/sync/ticket-writes/ticket-writer-service';
import { startInstanceLiveness } from '../src/worker/instance-liveness';
import { startHarness, type Harness } from './sync-incident-harness';
import { eventually } from './support/eventually';
import { backends } from './support/test-database';

const ACCOUNTS = 50;
const TICKETS_PER_ACCOUNT = 2;
const CHANGES_PER_TICKET = 2;
const CONCURRENCY = 4;

describe.each(backends)('fifty accounts writing on one instance (%s)', (backend) => {
  let h: Harness;
  let db: TDatabase;
  let boss: PgBoss;
  let server: ReturnType<express.Express['listen']>;
  let readyUrl: string;

  beforeAll(async () => {
    h = await startHarness(backend);
    // PostgreSQL: the app pool as deployed (10), with a short acquire timeout that makes a starved
    // pool fail loudly instead of stalling
    db =
      h.db.backend === 'postgres'
        ? await openDatabase({
            databaseUrl: h.db.connectionString,
            poolSize: 10,
            acquireTimeoutMs: 1_000,
          })
        : h.db;
    boss = await createJobQueue(db, { supervise: false, schedule: false });
    await boss.createQueue('probe');
    const app = express();
    app.use(
      operationsRouter({
        db,
        boss,
        probeQueue: 'probe',
        queues: { read: async () => [] },
        ticketWrites: writeHealthReader(db, { now: () => new Date(), lateAfterSeconds: 120 }),
        metrics: createConnectorMetrics({ processMetrics: false }),
        metricsToken: undefined,
        detailsFromLoopback: false,
        migrationsAtStart: 0,
        queueRunning: () => true,
        logger: createLogger(() => undefined),
      }),
    );
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    readyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`;
    // one Zendesk account stands for all fifty: lift its limits so only the writers' pacing shows
    await h.zendeskControl('PUT', '/rate-limit', {
      requests_per_minute: 100_000,
      update_ticket_per_minute: 100_000,
      ticket_updates_per_user: 100_000,
      max_active_jobs: 1_000,
    });
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await boss?.stop({ graceful: false });
    if (db && db !== h.db) await db.close();
    await h?.close();
  });

  it('keeps /readyz answering and the pool from running dry while every account drains, at most the cap at once', async () => {
    const accounts: { accountId: string; tickets: number[]; events: Map<number, string[]> }[] = [];
    for (let a = 0; a < ACCOUNTS; a += 1) {
      const { id: accountId } = await db.prisma.account.create({
        data: { zendeskSubdomain: `load${randomUUID()}` },
      });
      const tickets: number[] = [];
      const events = new Map<number, string[]>();
      for (let t = 0; t < TICKETS_PER_ACCOUNT; t += 1) {
        const created = await h.zendesk.tickets.create({
          subject: `Load ${a}/${t}`,
          comment: { body: 'Please look at this site.' },
        });
        tickets.push(created.ticket.id);
        const refs: string[] = [];
        for (let c = 0; c < CHANGES_PER_TICKET; c += 1) {
          const eventRef = `evt_load_${randomUUID()}`;
          refs.push(eventRef);
          await recordTicketChange(db, {
            accountId,
            ticketId: created.ticket.id,
            incidentId: `inc_load_${a}_${t}`,
            eventRef,
            eventName: 'incident.history_created',
            eventAt: new Date(Date.now() + c),
            entry: { kind: 'history', message: `Update ${c} for account ${a}.` },
            readyAt: new Date(),
          });
        }
        events.set(created.ticket.id, refs);
      }
      accounts.push({ accountId, tickets, events });
    }

    // Zendesk is slow: 150 ms per request, counted across every account
    let inFlight = 0;
    let mostAtOnce = 0;
    const slow: typeof fetch = async (input, init) => {
      mostAtOnce = Math.max(mostAtOnce, (inFlight += 1));
      try {
        await new Promise((resolve) => setTimeout(resolve, 150));
        return await fetch(input, init);
      } finally {
        inFlight -= 1;
      }
    };
    const zendesk = h.zendeskWith(slow);
    const problems: string[] = [];
    const liveness = await startInstanceLiveness({ db, log: (line) => problems.push(line) });
    const writer = startTicketWriter({
      db,
      contextFor: async (accountId) => ({ ...h.context(), accountId, zendesk }),
      instance: liveness,
      concurrency: CONCURRENCY,
      drain: { jobPollIntervalMs: 300 },
      log: (line) => problems.push(line),
    });

    const probes: { status: number; body: unknown }[] = [];
    let mostWaiting = 0;
    let draining = true;
    const sampler =
      db.backend === 'postgres'
        ? setInterval(() => {
            if (db.backend === 'postgres')
              mostWaiting = Math.max(mostWaiting, db.pool.waitingCount);
          }, 5)
        : undefined;
    const probing = (async () => {
      while (draining) {
        const response = await fetch(readyUrl).catch(() => null);
        probes.push({ status: response?.status ?? 0, body: await response?.json() });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    try {
      for (const { accountId } of accounts) writer.signal(accountId);
      let unwritten = -1;
      await eventually(
        'every account drained',
        async () => {
          unwritten = await db.prisma.pendingTicketChange.count({ where: { writtenAt: null } });
          return unwritten === 0 ? true : undefined;
        },
        { intervalMs: 250, progress: () => unwritten },
      );
    } finally {
      draining = false;
      await probing;
      if (sampler) clearInterval(sampler);
      await writer.stop();
      await liveness.stop();
    }

    expect(problems).toEqual([]); // no pass failed (an acquire timeout would be one)
    expect(probes.length).toBeGreaterThan(5);
    // ready, every check passed, at each probe (a starved pool fails the database check)
    const ready = { ok: true, checks: { database: 'ok', queue: 'ok', migrations: 'ok' } };
    expect(probes).toEqual(probes.map(() => ({ status: 200, body: ready })));
    if (db.backend === 'postgres') expect(mostWaiting).toBeLessThan(db.pool.options.max ?? 10);
    expect(mostAtOnce).toBeLessThanOrEqual(CONCURRENCY);
    expect(mostAtOnce).toBeGreaterThan(1);
    for (const { tickets, events } of accounts) {
      for (const ticketId of tickets) {
        const refs = (await h.eventWrites(ticketId)).flat();
        expect(refs.sort()).toEqual([...events.get(ticketId)!].sort());
      }
    }
  });
});

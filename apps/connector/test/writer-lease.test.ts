// Instances' heartbeats and the account writer's lease, on both databases: an instance is alive
// while its heartbeat is recent; one instance holds an account's lease at a time, renewing it at
// each pass; a lease that ran out goes to the next taker, and one whose holder is dead goes at
// once, naming the dead holder; a pass that outlived its lease cannot renew it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, withSqlTransaction, type TDatabase } from '@incident-desk/db';
import {
  releaseWriterLease,
  renewWriterLease,
  takeWriterLease,
} from '../src/sync/ticket-writes/writer-lease';
import { startInstanceLiveness } from '../src/worker/instance-liveness';
import { eventually } from './support/eventually';
import { backends, openTestDatabase } from './support/test-database';

describe.each(backends)('instances and writer leases on %s', (backend) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  const t0 = new Date('2031-05-01T12:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  beforeAll(async () => {
    db = await openTestDatabase(backend);
  });
  afterAll(() => db?.dispose());

  /** An instance row whose last heartbeat was at `heartbeatAt`. */
  const instanceBeating = async (heartbeatAt: Date, id = randomUUID()) => {
    await db.prisma.connectorInstance.create({
      data: { id, startedAt: heartbeatAt, heartbeatAt },
    });
    return id;
  };
  const newAccount = async () =>
    (await db.prisma.account.create({ data: { zendeskSubdomain: `lease${randomUUID()}` } })).id;

  it('an instance is alive while it beats, dead once its heartbeat is older than the dead-after time, and gone when stopped', async () => {
    let clock = t0;
    const liveness = await startInstanceLiveness({
      db,
      now: () => clock,
      heartbeatIntervalMs: 20,
      deadAfterMs: 10_000,
    });
    try {
      expect(await liveness.isInstanceAlive(liveness.instanceId)).toBe(true);
      expect(await liveness.isInstanceAlive(randomUUID())).toBe(false);
      const quiet = await instanceBeating(at(-10_000));
      const recent = await instanceBeating(at(-9_000));
      expect(await liveness.isInstanceAlive(quiet)).toBe(false);
      expect(await liveness.isInstanceAlive(recent)).toBe(true);
      expect(liveness.aliveCutoff()).toEqual(at(-10_000));

      // the clock moves on without a heartbeat recorded: its own heartbeat is late
      clock = at(6_000);
      expect(liveness.heartbeatFresh()).toBe(false);
      // the next beats record the new time
      const beat = async () => {
        const row = await db.prisma.connectorInstance.findUnique({
          where: { id: liveness.instanceId },
        });
        return row?.heartbeatAt.getTime() === clock.getTime() ? true : undefined;
      };
      await eventually('a heartbeat at the new time', beat, { intervalMs: 20 });
      expect(liveness.heartbeatFresh()).toBe(true);
      expect(await liveness.isInstanceAlive(recent)).toBe(false); // 15 s since its last beat
    } finally {
      await liveness.stop();
    }
    expect(await db.prisma.connectorInstance.count({ where: { id: liveness.instanceId } })).toBe(0);
  });

  it('one holder at a time: renewed by its holder, refused to others until it runs out', async () => {
    const accountId = await newAccount();
    const [a, b] = [await instanceBeating(t0), await instanceBeating(t0)];
    const take = (holder: string, now: Date) =>
      takeWriterLease(db, { accountId, holder, now, leaseMs: 10_000, aliveCutoff: at(-10_000) });

    expect(await take(a, t0)).toEqual({ held: true, tookOverFrom: null });
    expect(await take(b, at(1_000))).toEqual({ held: false, holder: a, expiresAt: at(10_000) });
    expect(await take(a, at(5_000))).toEqual({ held: true, tookOverFrom: null }); // renewed
    expect(await take(b, at(14_999))).toMatchObject({ held: false, expiresAt: at(15_000) });
    // ran out: the next taker has it; its holder is alive, so nothing was taken from the dead
    expect(await take(b, at(15_000))).toEqual({ held: true, tookOverFrom: null });
    expect(await take(a, at(15_001))).toMatchObject({ held: false, holder: b });

    // released when nothing waits: anyone takes it at once
    await releaseWriterLease(db, accountId, b);
    expect(await take(a, at(15_002))).toEqual({ held: true, tookOverFrom: null });
    // another holder's release lets nothing go
    await releaseWriterLease(db, accountId, b);
    expect(await take(b, at(15_003))).toMatchObject({ held: false, holder: a });
  });

  it('a lease whose holder is dead goes at once, naming the dead holder', async () => {
    const accountId = await newAccount();
    const dead = await instanceBeating(at(-30_000));
    const alive = await instanceBeating(t0);
    await db.prisma.ticketWriterLease.create({
      data: { accountId, holder: dead, expiresAt: at(8_000) },
    });
    expect(
      await takeWriterLease(db, {
        accountId,
        holder: alive,
        now: t0,
        aliveCutoff: at(-10_000),
      }),
    ).toEqual({ held: true, tookOverFrom: dead });
    const lease = await db.prisma.ticketWriterLease.findUniqueOrThrow({ where: { accountId } });
    expect(lease).toMatchObject({ holder: alive, expiresAt: at(10_000) });
  });

  it('many takers at once: exactly one holds the lease', async () => {
    const accountId = await newAccount();
    const holders = await Promise.all(Array.from({ length: 6 }, () => instanceBeating(t0)));
    // PostgreSQL: separate handles, so the statements really run side by side
    const url = db.backend === 'postgres' ? db.connectionString : null;
    const handles: TDatabase[] = url
      ? await Promise.all(holders.map(() => openDatabase({ databaseUrl: url, poolSize: 2 })))
      : holders.map(() => db);
    try {
      const outcomes = await Promise.all(
        holders.flatMap((holder, i) =>
          [0, 1].map(() =>
            takeWriterLease(handles[i]!, {
              accountId,
              holder,
              now: t0,
              aliveCutoff: at(-10_000),
            }),
          ),
        ),
      );
      const winners = new Set(
        outcomes.flatMap((outcome, i) => (outcome.held ? [holders[Math.floor(i / 2)]] : [])),
      );
      expect(winners.size).toBe(1);
      const lease = await db.prisma.ticketWriterLease.findUniqueOrThrow({ where: { accountId } });
      expect(winners).toEqual(new Set([lease.holder]));
    } finally {
      if (db.backend === 'postgres') await Promise.all(handles.map((handle) => handle.close()));
    }
  });

  it('a pass renews its lease when it marks its writes, and cannot once another instance took it over', async () => {
    const accountId = await newAccount();
    const [a, b] = [await instanceBeating(t0), await instanceBeating(t0)];
    await takeWriterLease(db, { accountId, holder: a, now: t0, aliveCutoff: at(-10_000) });
    const renew = (holder: string, now: Date) =>
      withSqlTransaction(db, (sql) => renewWriterLease(sql, { accountId, holder, now }));
    expect(await renew(a, at(9_000))).toBe(true);
    expect(
      (await db.prisma.ticketWriterLease.findUniqueOrThrow({ where: { accountId } })).expiresAt,
    ).toEqual(at(19_000));
    expect(await renew(b, at(9_500))).toBe(false);
    // a's pass ran past its lease, b took the account over: a's renewal fails, b's holds
    await takeWriterLease(db, { accountId, holder: b, now: at(19_000), aliveCutoff: at(0) });
    expect(await renew(a, at(19_500))).toBe(false);
    expect(await renew(b, at(19_500))).toBe(true);
  });
});

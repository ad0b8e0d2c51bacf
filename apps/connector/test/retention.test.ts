// Storage stays bounded: every table with a retention rule loses its rows once no reader can need
// them, in bounded batches, and keeps the rows a reader may still look at; pg-boss deletes
// finished jobs after JOB_RETENTION_DAYS while queued ones stay. On PGlite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJobQueue, defaultJobQueueSchema, type PgBoss } from '@incident-desk/db';
import { ACCOUNT_SETUP_QUEUE, createSetupQueue } from '../src/accounts/setup-job';
import { INCIDENT_EVENT_QUEUE } from '../src/jobs/incident-event-job';
import { loadConfig } from '../src/config/config';
import { buildServices } from '../src/connector/build-services';
import { startWorkers } from '../src/connector/start-workers';
import { TICKET_EVENT_QUEUE } from '../src/jobs/ticket-event-job';
import { createLogger } from '../src/log/logger';
import { createInbox } from '../src/ingest/inbox';
import { createConnectorMetrics } from '../src/metrics/connector-metrics';
import { keepFinishedJobs } from '../src/retention/finished-jobs';
import { runRetentionPass } from '../src/retention/retention-pass';
import { retentionRules } from '../src/retention/retention-rules';
import { startRetention } from '../src/retention/retention-service';
import { DEFAULT_RETENTION, type RetentionSettings } from '../src/retention/retention-settings';
import { TICKET_WRITE_QUEUE } from '../src/jobs/ticket-write-queue';
import { purgeOldBudget } from '../src/sync/ticket-writes/write-budget';
import { createSyncQueues, SYNC_QUEUES } from '../src/worker/queues';
import { QUEUE_RETRY_BACKSTOP } from '../src/worker/hand-back';
import { TEST_ACCOUNT } from './support/receiver';
import { eventually } from './support/eventually';
import { backends, openTestDatabase } from './support/test-database';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const OTHER_ACCOUNT = '00000000-0000-4000-8000-000000000002';

describe.each(backends)('retention on %s', (backend) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let boss: PgBoss;
  let now: Date;
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const pass = (
    options: {
      settings?: RetentionSettings;
      batchSize?: number;
      onBatch?: (t: string, n: number) => void;
    } = {},
  ) =>
    runRetentionPass(db, {
      rules: retentionRules(options.settings ?? DEFAULT_RETENTION, defaultJobQueueSchema(db)),
      now,
      batchSize: options.batchSize ?? 100,
      pauseMs: 0,
      ...(options.onBatch ? { onBatch: options.onBatch } : {}),
    });

  beforeAll(async () => {
    db = await openTestDatabase(backend);
    for (const [id, sub] of [
      [TEST_ACCOUNT, 'acme'],
      [OTHER_ACCOUNT, 'globex'],
    ] as const)
      await db.prisma.account.create({ data: { id, zendeskSubdomain: sub } });
    boss = await createJobQueue(db, { supervise: false, schedule: false });
    await createSyncQueues(boss);
    await createSetupQueue(boss);
  });
  afterAll(() => db?.dispose());
  beforeEach(() => {
    now = new Date();
  });

  it('deletes webhook receipts older than RECEIPT_RETENTION_DAYS and keeps younger ones', async () => {
    const receipt = (key: string, receivedAt: Date, accountId: string | null = TEST_ACCOUNT) =>
      db.prisma.webhookReceipt.create({
        data: { accountId, source: 'incident', dedupeKey: key, payload: { key }, receivedAt },
      });
    await receipt('r-8d', ago(8 * DAY));
    await receipt('r-8d-unattributed', ago(8 * DAY), null);
    await receipt('r-8d-other-account', ago(8 * DAY), OTHER_ACCOUNT);
    await receipt('r-6d', ago(6 * DAY));
    await receipt('r-9d-released:released:x', ago(9 * DAY));

    const deleted = await pass();
    expect(deleted.webhook_receipt).toBe(4);
    const left = await db.prisma.webhookReceipt.findMany({
      where: { dedupeKey: { startsWith: 'r-' } },
    });
    expect(left.map((r) => r.dedupeKey)).toEqual(['r-6d']);

    // a longer setting keeps them longer
    await receipt('r-8d-again', ago(8 * DAY));
    expect(
      (await pass({ settings: { ...DEFAULT_RETENTION, receiptDays: 10, resolvedDays: 30 } }))
        .webhook_receipt,
    ).toBeUndefined();
    expect(await db.prisma.webhookReceipt.count({ where: { dedupeKey: 'r-8d-again' } })).toBe(1);
  });

  it('lets a delivery whose receipt is past the window in as new, while one inside it is still a duplicate', async () => {
    const inbox = createInbox(db, boss);
    const deliver = (key: string) =>
      inbox.accept({
        source: 'incident',
        dedupeKey: `${TEST_ACCOUNT}:${key}`,
        accountId: TEST_ACCOUNT,
        payload: { key },
        job: { queue: INCIDENT_EVENT_QUEUE, data: { key }, singletonKey: `${TEST_ACCOUNT}:${key}` },
      });
    expect(await deliver('evt_old')).toMatchObject({ status: 'accepted' });
    expect(await deliver('evt_recent')).toMatchObject({ status: 'accepted' });
    expect(await deliver('evt_old')).toEqual({ status: 'duplicate' });
    const age = (key: string, ms: number) =>
      db.prisma.webhookReceipt.updateMany({
        where: { dedupeKey: `${TEST_ACCOUNT}:${key}` },
        data: { receivedAt: ago(ms) },
      });
    await age('evt_old', 7 * DAY + MINUTE);
    await age('evt_recent', 7 * DAY - HOUR);

    await pass();
    expect(await deliver('evt_old')).toMatchObject({ status: 'accepted' });
    expect(await deliver('evt_recent')).toEqual({ status: 'duplicate' });
    const jobs = await boss.findJobs(INCIDENT_EVENT_QUEUE, { data: { key: 'evt_old' } });
    expect(jobs).toHaveLength(2);
  });

  type EchoKind =
    'ticket_note' | 'incident_comment' | 'report_history' | 'incident_action' | 'evidence_upload';

  it('deletes echo ledger entries past the window their readers look back over, and keeps the rest', async () => {
    type Extra = {
      text?: string;
      files?: number;
      settledAt?: null;
      echoedAt?: Date;
      echoRef?: string;
    };
    const entry = (kind: EchoKind, age: number, extra: Extra = {}) => ({
      accountId: TEST_ACCOUNT,
      kind,
      target: kind === 'ticket_note' ? '1' : 'inc_echo',
      sentAt: ago(age),
      settledAt: ago(age),
      ...extra,
    });
    await db.prisma.echoLedgerEntry.createMany({
      data: [
        ...(['ticket_note', 'incident_comment', 'report_history'] as const).flatMap((kind) => [
          entry(kind, 2 * DAY + MINUTE, { text: `old ${kind}` }),
          entry(kind, 2 * DAY - HOUR, { text: `recent ${kind}` }),
        ]),
        // left unsettled by a caller that died: it stopped counting after a minute
        entry('incident_action', 2 * DAY + MINUTE, { text: 'old call', settledAt: null }),
        entry('incident_action', 30 * MINUTE, { text: 'recent call' }),
        entry('evidence_upload', 3 * DAY, { files: 1 }), // its echo never came
        entry('evidence_upload', 3 * DAY, { files: 2, echoedAt: ago(3 * DAY), echoRef: 'e1' }),
        // its echo came yesterday: that event applied again is still recognised
        entry('evidence_upload', 3 * DAY, { files: 3, echoedAt: ago(DAY), echoRef: 'e2' }),
        entry('evidence_upload', DAY, { files: 4 }),
      ],
    });

    const deleted = await pass();
    expect(deleted).toMatchObject({ echo_ledger: 6 });
    const kept = await db.prisma.echoLedgerEntry.findMany({ orderBy: [{ kind: 'asc' }] });
    expect(kept.map((row) => row.text ?? `${row.files} files`).sort()).toEqual([
      '3 files',
      '4 files',
      'recent call',
      'recent incident_comment',
      'recent report_history',
      'recent ticket_note',
    ]);
  });

  it('deletes ticket changes written two days ago, and refused ones only once no dead letter can retry them', async () => {
    let n = 0;
    const change = (extra: { createdAt: Date; writtenAt?: Date; failedReason?: string }) => {
      n += 1;
      return db.prisma.pendingTicketChange.create({
        data: {
          accountId: TEST_ACCOUNT,
          ticketId: 42n,
          incidentId: 'inc_42',
          eventRef: `evt_${n}`,
          eventName: 'incident.status_changed',
          eventAt: extra.createdAt,
          readyAt: extra.createdAt,
          ...extra,
        },
      });
    };
    await change({ createdAt: ago(3 * DAY), writtenAt: ago(3 * DAY) });
    const writtenRecent = await change({ createdAt: ago(DAY), writtenAt: ago(DAY) });
    const unsentOld = await change({ createdAt: ago(30 * DAY) }); // the writer's queue
    const refusedRetryable = await change({ createdAt: ago(3 * DAY), failedReason: 'closed' });
    const refusedResolved = await change({ createdAt: ago(3 * DAY), failedReason: 'closed' });
    const refusedOrphan = await change({ createdAt: ago(3 * DAY), failedReason: 'closed' });
    const refusedRecent = await change({ createdAt: ago(DAY), failedReason: 'closed' });
    const failure = (events: string[], resolvedAt: Date | null, ticketId = 42n) =>
      db.prisma.syncFailure.create({
        data: {
          accountId: TEST_ACCOUNT,
          queue: TICKET_WRITE_QUEUE,
          ticketId,
          reason: 'closed',
          payload: { ticketId: Number(ticketId), events },
          resolvedAt,
        },
      });
    await failure([refusedRetryable.eventRef, refusedRecent.eventRef], null);
    await failure([refusedResolved.eventRef], ago(DAY));
    // the same event of another ticket's failure does not keep it
    await failure([refusedOrphan.eventRef], null, 43n);

    // the writer's own purge leaves settled changes to retention
    await purgeOldBudget(db, now);
    expect(await db.prisma.pendingTicketChange.count({ where: { accountId: TEST_ACCOUNT } })).toBe(
      7,
    );

    expect((await pass()).pending_ticket_change).toBe(3);
    const left = await db.prisma.pendingTicketChange.findMany({ select: { id: true } });
    expect(left.map((row) => row.id).sort()).toEqual(
      [writtenRecent, unsentOld, refusedRetryable, refusedRecent].map((row) => row.id).sort(),
    );
  });

  it("deletes an action request only once its job is gone from pg-boss (the job's retries read it)", async () => {
    const jobId = randomUUID();
    await boss.insert(TICKET_EVENT_QUEUE, [
      { id: jobId, data: { accountId: TEST_ACCOUNT }, singletonKey: `${TEST_ACCOUNT}:7` },
    ]);
    const request = (receiptId: string, createdAt: Date) =>
      db.prisma.incidentActionRequest.create({
        data: {
          accountId: TEST_ACCOUNT,
          receiptId,
          ticketId: 7n,
          incidentId: 'inc_7',
          action: 'tkd',
          state: 'sent',
          createdAt,
        },
      });
    await request(jobId, ago(3 * DAY)); // its job is still there (queued, retrying or failed)
    await request(randomUUID(), ago(3 * DAY)); // its job was deleted
    await request(randomUUID(), ago(HOUR));
    await request('not-a-uuid', ago(3 * DAY));

    expect((await pass()).incident_action_request).toBe(2);
    const left = await db.prisma.incidentActionRequest.findMany({ orderBy: { createdAt: 'asc' } });
    expect(left).toHaveLength(2);
    expect(left[0]!.receiptId).toBe(jobId);

    await boss.deleteJob(TICKET_EVENT_QUEUE, jobId);
    expect((await pass()).incident_action_request).toBe(1);
  });

  it('deletes dead letters and reconciliation entries resolved RESOLVED_RETENTION_DAYS ago; unresolved ones stay', async () => {
    const failure = (label: string, resolvedAt: Date | null) =>
      db.prisma.syncFailure.create({
        data: {
          accountId: TEST_ACCOUNT,
          queue: TICKET_EVENT_QUEUE,
          reason: label,
          payload: {},
          createdAt: ago(400 * DAY),
          resolvedAt,
        },
      });
    await failure('resolved-31d', ago(31 * DAY));
    await failure('resolved-29d', ago(29 * DAY));
    await failure('unresolved', null);
    const entry = (ticketId: bigint, resolvedAt: Date | null) =>
      db.prisma.reconciliationEntry.create({
        data: {
          accountId: TEST_ACCOUNT,
          ticketId,
          reason: 'duplicate',
          createdAt: ago(400 * DAY),
          resolvedAt,
        },
      });
    await entry(1n, ago(31 * DAY));
    await entry(2n, ago(29 * DAY));
    await entry(3n, null);

    expect(await pass()).toMatchObject({ sync_failure: 1, reconciliation_entry: 1 });
    const reasons = (
      await db.prisma.syncFailure.findMany({ where: { queue: TICKET_EVENT_QUEUE } })
    ).map((f) => f.reason);
    expect(reasons.sort()).toEqual(['resolved-29d', 'unresolved']);
    const tickets = (await db.prisma.reconciliationEntry.findMany()).map((e) => e.ticketId);
    expect(tickets.sort()).toEqual([2n, 3n]);
  });

  it('never deletes the records that must last: links, sync states, handled comments, reports', async () => {
    const old = ago(3_650 * DAY);
    const account = { accountId: TEST_ACCOUNT };
    await db.prisma.incidentLink.create({
      data: { ...account, incidentId: 'inc_kept', ticketId: 900n, createdAt: old },
    });
    await db.prisma.ticketSyncState.create({
      data: { ...account, ticketId: 900n, lastEventAt: old, createdAt: old },
    });
    await db.prisma.forwardedComment.create({
      data: {
        ...account,
        commentId: 9001n,
        ticketId: 900n,
        incidentId: 'inc_kept',
        status: 'forwarded',
        createdAt: old,
      },
    });
    await db.prisma.reportAttempt.create({
      data: {
        ...account,
        ticketId: 900n,
        mode: 'takedown',
        state: 'linked',
        startedAt: old,
        finishedAt: old,
      },
    });
    await pass();
    expect(await db.prisma.incidentLink.count({ where: { incidentId: 'inc_kept' } })).toBe(1);
    expect(await db.prisma.ticketSyncState.count({ where: { ticketId: 900n } })).toBe(1);
    expect(await db.prisma.forwardedComment.count({ where: { commentId: 9001n } })).toBe(1);
    expect(await db.prisma.reportAttempt.count({ where: { ticketId: 900n } })).toBe(1);
  });

  it('deletes in batches of at most the batch size, oldest first, until none is left', async () => {
    await db.prisma.echoLedgerEntry.deleteMany();
    await db.prisma.echoLedgerEntry.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({
        accountId: TEST_ACCOUNT,
        kind: 'ticket_note',
        target: '5',
        text: `old ${i}`,
        sentAt: ago(3 * DAY + i * MINUTE),
      })),
    });
    await db.prisma.echoLedgerEntry.create({
      data: {
        accountId: TEST_ACCOUNT,
        kind: 'ticket_note',
        target: '5',
        text: 'recent',
        sentAt: ago(HOUR),
      },
    });
    const batches: number[] = [];
    const deleted = await pass({
      batchSize: 10,
      onBatch: (table, count) => {
        if (table === 'echo_ledger') batches.push(count);
      },
    });
    expect(deleted.echo_ledger).toBe(25);
    expect(batches).toEqual([10, 10, 5]);
    expect((await db.prisma.echoLedgerEntry.findMany()).map((note) => note.text)).toEqual([
      'recent',
    ]);
  });

  it('deletes every expired row exactly once when two instances run a pass at the same time', async () => {
    await db.prisma.echoLedgerEntry.deleteMany();
    await db.prisma.echoLedgerEntry.createMany({
      data: Array.from({ length: 120 }, (_, i) => ({
        accountId: i % 2 ? TEST_ACCOUNT : OTHER_ACCOUNT,
        kind: 'incident_comment',
        target: `inc_${i}`,
        text: `comment ${i}`,
        sentAt: ago(3 * DAY + i * 1000),
      })),
    });
    const [a, b] = await Promise.all([pass({ batchSize: 7 }), pass({ batchSize: 7 })]);
    expect((a.echo_ledger ?? 0) + (b.echo_ledger ?? 0)).toBe(120);
    expect(await db.prisma.echoLedgerEntry.count()).toBe(0);
  });

  it('deletes completed and failed jobs past JOB_RETENTION_DAYS at pg-boss maintenance; queued jobs stay', async () => {
    await keepFinishedJobs(boss, [...SYNC_QUEUES, ACCOUNT_SETUP_QUEUE], 2);
    for (const name of [...SYNC_QUEUES, ACCOUNT_SETUP_QUEUE]) {
      const queue = await boss.getQueue(name);
      expect(queue).toMatchObject({
        deleteAfterSeconds: 2 * 86_400,
        retentionSeconds: 14 * 86_400,
      });
    }
    // the sync queue keeps the timing it was created with
    expect(await boss.getQueue(TICKET_EVENT_QUEUE)).toMatchObject({
      policy: 'key_strict_fifo',
      retryLimit: QUEUE_RETRY_BACKSTOP,
      expireInSeconds: 300,
    });

    const queue = TICKET_EVENT_QUEUE;
    const send = async (key: string, options: { retryLimit?: number } = {}) =>
      (await boss.send(queue, { key }, { singletonKey: `jobs:${key}`, ...options }))!;
    const finish = async (key: string, outcome: 'complete' | 'fail', options = {}) => {
      const id = await send(key, options);
      const [job] = await boss.fetch(queue);
      expect(job?.id).toBe(id);
      if (outcome === 'complete') await boss.complete(queue, id);
      else await boss.fail(queue, id, { message: 'broken' });
      return id;
    };
    const completedOld = await finish('completed-old', 'complete');
    const failedOld = await finish('failed-old', 'fail', { retryLimit: 0 });
    const completedRecent = await finish('completed-recent', 'complete');
    const retrying = await finish('retrying', 'fail', { retryLimit: 5 });
    const queued = await send('queued');
    const schema = `"${defaultJobQueueSchema(db)}"`;
    const age = (ids: string[], days: number) =>
      db.prisma.$executeRawUnsafe(
        `UPDATE ${schema}.job SET created_on = now() - $2::interval, start_after = now() - $2::interval,
           completed_on = CASE WHEN completed_on IS NULL THEN NULL ELSE now() - $2::interval END
         WHERE name = $3 AND id = ANY($1::uuid[])`,
        ids,
        `${days} days`,
        queue,
      );
    await age([completedOld, failedOld], 3);
    await age([completedRecent], 1);
    await age([queued, retrying], 10); // waiting long, still within keep_until

    const states = async () =>
      Object.fromEntries(
        (
          await db.prisma.$queryRawUnsafe<{ key: string; state: string }[]>(
            `SELECT data->>'key' AS key, state::text AS state FROM ${schema}.job
             WHERE name = $1 AND data->>'key' IS NOT NULL`,
            queue,
          )
        ).map((job) => [job.key, job.state]),
      );
    expect(await states()).toMatchObject({
      'completed-old': 'completed',
      'failed-old': 'failed',
      retrying: 'retry',
    });

    await pass(); // the app's own rules never touch jobs
    expect(Object.keys(await states())).toHaveLength(5);
    await boss.supervise(queue);
    expect(await states()).toEqual({
      'completed-recent': 'completed',
      queued: 'created',
      retrying: 'retry',
    });
  });

  it('runs a pass after start and at each interval, logs and counts what it deleted, and stops', async () => {
    await db.prisma.echoLedgerEntry.deleteMany();
    await db.prisma.echoLedgerEntry.create({
      data: {
        accountId: TEST_ACCOUNT,
        kind: 'ticket_note',
        target: '8',
        text: 'old',
        sentAt: ago(3 * DAY),
      },
    });
    const logged: { message: string; fields: Record<string, unknown> | undefined }[] = [];
    const log = (message: string, fields?: Record<string, unknown>) =>
      logged.push({ message, fields });
    const metrics = createConnectorMetrics({ processMetrics: false });
    const service = startRetention({
      db,
      settings: DEFAULT_RETENTION,
      logger: { debug: log, info: log, warn: log, error: log },
      onDeleted: (table, rows) => metrics.retentionDeleted(table, rows),
      firstPassDelayMs: 0,
      intervalMs: 50,
      batchSize: 10,
      pauseMs: 0,
    });
    try {
      const line = await eventually('the first pass', () =>
        logged.find((entry) => entry.message === 'retention: expired rows deleted'),
      );
      expect(line.fields).toMatchObject({ echo_ledger: 1 });
      // a later pass deletes what expired since
      await db.prisma.echoLedgerEntry.create({
        data: {
          accountId: TEST_ACCOUNT,
          kind: 'ticket_note',
          target: '8',
          text: 'old too',
          sentAt: ago(3 * DAY),
        },
      });
      // its line is logged once the pass has ended and counted what it deleted (the row is gone
      // from the table before that)
      const later = await eventually('a later pass', () =>
        logged.find((entry) => entry !== line && entry.fields?.echo_ledger !== undefined),
      );
      expect(later.fields).toMatchObject({ echo_ledger: 1 });
      expect(await db.prisma.echoLedgerEntry.count({ where: { target: '8' } })).toBe(0);
      const scrape = await metrics.registry.metrics();
      expect(scrape).toMatch(/incident_desk_retention_deleted_rows_total\{table="echo_ledger"\} 2/);
      expect(scrape).not.toMatch(new RegExp(TEST_ACCOUNT));
    } finally {
      await service.stop();
    }
    // stopped: a pass asked for now deletes nothing
    await db.prisma.echoLedgerEntry.create({
      data: {
        accountId: TEST_ACCOUNT,
        kind: 'ticket_note',
        target: '8',
        text: 'after stop',
        sentAt: ago(3 * DAY),
      },
    });
    expect(await service.runOnce()).toEqual({});
    expect(await db.prisma.echoLedgerEntry.count({ where: { target: '8' } })).toBe(1);
  });

  it('logs a failed pass and tries again at the next one', async () => {
    const warnings: string[] = [];
    const ignore = () => undefined;
    const service = startRetention({
      db,
      settings: DEFAULT_RETENTION,
      jobSchema: 'no_such_schema',
      logger: { debug: ignore, info: ignore, error: ignore, warn: (m) => warnings.push(m) },
      firstPassDelayMs: 0,
      intervalMs: 20,
      pauseMs: 0,
    });
    try {
      await eventually('two failed passes', () => (warnings.length >= 2 ? true : undefined));
      expect(warnings[0]).toBe('retention pass failed; the next one tries again');
    } finally {
      await service.stop();
    }
  });
});

describe.each(backends)('retention in the connector’s workers on %s', (backend) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let dir: string;

  beforeAll(async () => {
    db = await openTestDatabase(backend);
    dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-retention-'));
    await db.prisma.account.create({ data: { id: TEST_ACCOUNT, zendeskSubdomain: 'acme' } });
  });
  afterAll(async () => {
    await db?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets JOB_RETENTION_DAYS on every queue and runs with the workers: logged, counted, stopped with them', async () => {
    const loaded = loadConfig({}, { secretKeysFile: path.join(dir, 'keys.json'), log: () => {} });
    const config = { ...loaded, retention: { ...loaded.retention, jobDays: 3 } };
    const lines: string[] = [];
    const logger = createLogger((line) => lines.push(line), { level: 'info', format: 'json' });
    const metrics = createConnectorMetrics({ processMetrics: false });
    const services = await buildServices({
      config,
      db,
      logger,
      metrics,
      queueOptions: undefined,
      wake: () => undefined,
    });
    for (const name of [...SYNC_QUEUES, ACCOUNT_SETUP_QUEUE])
      expect(await services.boss.getQueue(name)).toMatchObject({
        deleteAfterSeconds: 3 * 86_400,
        retentionSeconds: 14 * 86_400,
      });
    await db.prisma.echoLedgerEntry.create({
      data: {
        accountId: TEST_ACCOUNT,
        kind: 'ticket_note',
        target: '1',
        text: 'old',
        sentAt: new Date(Date.now() - 3 * DAY),
      },
    });
    const workers = await startWorkers({
      config,
      db,
      services,
      logger,
      metrics,
      incidentEvents: undefined,
      ticketWriter: undefined,
      retention: { firstPassDelayMs: 0 },
    });
    try {
      await eventually('the first retention pass', async () =>
        (await db.prisma.echoLedgerEntry.count()) === 0 ? true : undefined,
      );
      const line = await eventually('its log line', () =>
        lines.find((l) => l.includes('retention: expired rows deleted')),
      );
      expect(JSON.parse(line)).toMatchObject({ level: 'info', echo_ledger: 1 });
      expect(await metrics.registry.metrics()).toMatch(
        /incident_desk_retention_deleted_rows_total\{table="echo_ledger"\} 1/,
      );
    } finally {
      await workers.stop(1_000);
    }
  });
});

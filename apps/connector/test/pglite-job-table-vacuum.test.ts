import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, type PgBoss } from '@incident-desk/db';
import { INCIDENT_EVENT_QUEUE } from '../src/jobs/incident-event-job';
import { syncJobOptions } from '../src/ingest/sync-job-options';
import { startPgliteJobTableVacuum } from '../src/worker/pglite-job-table-vacuum';
import { createSyncQueues } from '../src/worker/queues';
import { TEST_ACCOUNT } from './support/receiver';
import { backends, openTestDatabase } from './support/test-database';

const WAITING_JOBS = 20;

describe.each(backends)('job table vacuum on %s', (backend) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let boss: PgBoss;

  beforeAll(async () => {
    db = await openTestDatabase(backend);
    boss = await createJobQueue(db, { supervise: false, schedule: false });
    await createSyncQueues(boss);
  });

  afterAll(async () => {
    await db.dispose();
  });

  /** The job table's row count as the planner knows it. */
  async function plannerRows(): Promise<number> {
    const [row] = await db.prisma.$queryRawUnsafe<{ rows: number }[]>(
      `SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = 'pgboss.job_common'::regclass`,
    );
    return row!.rows;
  }

  it.runIf(backend === 'pglite')(
    'tells the planner how many jobs wait, which nothing else does on PGlite',
    async () => {
      // one incident's burst: every job in one key, the backlog that made each fetch slow
      for (let i = 0; i < WAITING_JOBS; i += 1)
        await boss.send(
          INCIDENT_EVENT_QUEUE,
          { accountId: TEST_ACCOUNT, i },
          { singletonKey: 'one-incident', ...syncJobOptions(TEST_ACCOUNT) },
        );
      expect(await plannerRows()).not.toBe(WAITING_JOBS);

      const failures: unknown[] = [];
      const vacuum = startPgliteJobTableVacuum({
        db,
        intervalMs: 3_600_000,
        onError: (error) => failures.push(error),
      })!;
      await vacuum.runOnce();
      await vacuum.stop();

      expect(failures).toEqual([]);
      expect(await plannerRows()).toBe(WAITING_JOBS);
    },
  );

  it.runIf(backend === 'postgres')('leaves PostgreSQL to its autovacuum', () => {
    expect(startPgliteJobTableVacuum({ db, onError: () => undefined })).toBeUndefined();
  });
});

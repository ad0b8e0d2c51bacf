// A job left active by a process that died runs again within seconds, not at its time limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, defaultJobQueueSchema, type PgBoss } from '@incident-desk/db';
import { syncJobOptions } from '../src/ingest/sync-job-options';
import { TICKET_EVENT_QUEUE } from '../src/jobs/ticket-event-job';
import { startDeadJobSweep } from '../src/worker/dead-job-sweep';
import { createSyncQueues } from '../src/worker/queues';
import { TEST_ACCOUNT } from './support/receiver';
import { eventually } from './support/eventually';
import { backends, openTestDatabase } from './support/test-database';

describe.each(backends)('dead job sweep on %s', (backend) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let boss: PgBoss;
  const recovered: string[] = [];

  beforeAll(async () => {
    db = await openTestDatabase(backend);
    boss = await createJobQueue(db, { supervise: false, schedule: false });
    await createSyncQueues(boss);
  });

  afterAll(async () => {
    await db.dispose();
  });

  /** A job fetched by a worker that then went silent `silentSeconds` ago. */
  async function jobOfSilentWorker(key: string, silentSeconds: number): Promise<string> {
    const id = (await boss.send(
      TICKET_EVENT_QUEUE,
      { accountId: TEST_ACCOUNT, key },
      { singletonKey: key, ...syncJobOptions(TEST_ACCOUNT) },
    ))!;
    const [fetched] = await boss.fetch(TICKET_EVENT_QUEUE);
    expect(fetched?.id).toBe(id);
    await db.prisma.$executeRawUnsafe(
      `UPDATE "${defaultJobQueueSchema(db)}".job
          SET heartbeat_on = now() - $2::int * interval '1 second' WHERE id = $1::uuid`,
      id,
      silentSeconds,
    );
    return id;
  }

  const sweepWith = (runningHere: Set<string>) =>
    startDeadJobSweep({
      db,
      boss,
      queues: [TICKET_EVENT_QUEUE],
      isRunningHere: (id) => runningHere.has(id),
      intervalMs: 60_000,
      onRecovered: ({ id }) => recovered.push(id),
      onError: (error) => {
        throw error;
      },
    });

  async function stateOf(id: string): Promise<string | undefined> {
    const [job] = await boss.findJobs(TICKET_EVENT_QUEUE, { id });
    return (job as { state?: string } | undefined)?.state;
  }

  it('hands a silent job back to the queue and says so', async () => {
    const id = await jobOfSilentWorker('silent', 30);
    const sweep = sweepWith(new Set());
    expect(await sweep.sweep()).toBe(1);
    sweep.stop();
    expect(recovered).toContain(id);
    expect(await stateOf(id)).toBe('retry');
    // it runs again: a fetch takes it once its retry delay has passed
    const [again] = await eventually('the job fetched again', async () => {
      const jobs = await boss.fetch(TICKET_EVENT_QUEUE);
      return jobs.length > 0 ? jobs : undefined;
    });
    expect(again?.id).toBe(id);
    await boss.complete(TICKET_EVENT_QUEUE, id);
  });

  it('leaves a job whose heartbeat is recent, and one this process runs', async () => {
    const recent = await jobOfSilentWorker('recent', 2);
    const sweep = sweepWith(new Set());
    expect(await sweep.sweep()).toBe(0);
    await boss.complete(TICKET_EVENT_QUEUE, recent);

    const mine = await jobOfSilentWorker('mine', 60);
    const ownSweep = sweepWith(new Set([mine]));
    expect(await ownSweep.sweep()).toBe(0);
    expect(await stateOf(mine)).toBe('active');
    sweep.stop();
    ownSweep.stop();
    await boss.complete(TICKET_EVENT_QUEUE, mine);
  });
});

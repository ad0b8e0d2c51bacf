import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, type Job, type TDatabase } from '../src/index';
import { backends, createTestDatabase, type TestDatabase } from './helpers/test-database';

/** Until `condition` holds; minutes, not seconds: a loaded machine is slow, not wrong. */
async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const fast = { pollingIntervalSeconds: 0.5 };

describe.each(backends)('createJobQueue on %s', (backend) => {
  let target: TestDatabase;
  let db: TDatabase | undefined;

  beforeAll(async () => {
    target = await createTestDatabase(backend);
  });

  afterAll(async () => {
    await db?.close();
    await target?.dispose();
  });

  it('processes each job sent exactly once', async () => {
    db = await target.open();
    const boss = await createJobQueue(db, { supervise: false });
    await boss.createQueue('once');
    const sent: string[] = [];
    for (let i = 0; i < 25; i++) {
      const id = await boss.send('once', { i });
      if (!id) throw new Error('send returned no id');
      sent.push(id);
    }

    const processed: string[] = [];
    await boss.work<{ i: number }>(
      'once',
      { ...fast, batchSize: 5 },
      async (jobs: Job<{ i: number }>[]) => {
        for (const job of jobs) processed.push(job.id);
      },
    );
    await waitFor(() => processed.length >= sent.length, 'all jobs to be processed');
    // Give a duplicate delivery the chance to show up.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect([...processed].sort()).toEqual([...sent].sort());

    for (const id of sent.slice(0, 3)) {
      await expect(boss.getJobById('once', id)).resolves.toMatchObject({ state: 'completed' });
    }
  });

  it('keeps a job that was sent but not processed across close and re-open, then processes it once', async () => {
    db ??= await target.open();
    const before = await createJobQueue(db, { supervise: false });
    await before.createQueue('durable');
    const id = await before.send('durable', { ticketId: 42 });
    await db.close();
    db = undefined;

    db = await target.open();
    const after = await createJobQueue(db, { supervise: false });
    const seen: Array<{ id: string; data: unknown }> = [];
    await after.work('durable', fast, async (jobs: Job<object>[]) => {
      for (const job of jobs) seen.push({ id: job.id, data: job.data });
    });
    await waitFor(() => seen.length > 0, 'the job sent before the restart');
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(seen).toEqual([{ id, data: { ticketId: 42 } }]);
  });

  it('retries a failed job and then completes it', async () => {
    db ??= await target.open();
    const boss = await createJobQueue(db, { supervise: false });
    await boss.createQueue('flaky', { retryLimit: 2, retryDelay: 0 });
    const id = await boss.send('flaky', {});
    let attempts = 0;
    await boss.work('flaky', fast, async () => {
      attempts++;
      if (attempts === 1) throw new Error('first attempt fails');
    });
    await waitFor(
      async () => (await boss.getJobById('flaky', id as string))?.state === 'completed',
      'the retry',
    );
    expect(attempts).toBe(2);
  });
});

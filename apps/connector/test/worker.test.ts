import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJobQueue, type Job, type PgBoss } from '@incident-desk/db';
import { AccountUnavailableError, type AccountContext } from '../src/accounts/account-context';
import { INCIDENT_EVENT_QUEUE } from '../src/jobs/incident-event-job';
import { JobDeferral } from '../src/jobs/job-deferral';
import { syncJobOptions } from '../src/ingest/sync-job-options';
import { TICKET_EVENT_QUEUE } from '../src/jobs/ticket-event-job';
import type { SyncOutcome } from '../src/worker/job-outcome';
import { createSyncQueues } from '../src/worker/queues';
import type { SyncHandler } from '../src/worker/job-run';
import { startWorker, type Worker } from '../src/worker/worker';
import { TEST_ACCOUNT } from './support/receiver';
import { eventually } from './support/eventually';
import { backends, openTestDatabase } from './support/test-database';

type Behaviour = (attempt: number) => SyncOutcome | Error | Promise<SyncOutcome>;

const OTHER_ACCOUNT = '00000000-0000-4000-8000-000000000002';

/** Until `check` holds (see eventually). */
function waitFor(check: () => Promise<boolean> | boolean): Promise<true> {
  return eventually('the condition', async () => ((await check()) ? true : undefined), {
    intervalMs: 50,
  });
}

describe.each(backends)('sync worker on %s', (backend) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let boss: PgBoss;
  let worker: Worker;
  const behaviours = new Map<string, Behaviour>();
  const attempts = new Map<string, number>();
  const runs: { key: string; worker: string }[] = [];

  const signals = new Map<string, (AbortSignal | undefined)[]>();

  function handlerFor(workerName: string): SyncHandler {
    return async (ctx, data) => {
      const key = (data as { key: string }).key;
      const attempt = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, attempt);
      expect([TEST_ACCOUNT, OTHER_ACCOUNT]).toContain(ctx.accountId);
      const signal = (ctx as AccountContext & { signal?: AbortSignal }).signal;
      signals.set(key, [...(signals.get(key) ?? []), signal]);
      if (key === 'overrun' && attempt === 1) {
        // the clients' requests end when the signal fires; this run then fails for good
        await new Promise((resolve) => signal?.addEventListener('abort', resolve, { once: true }));
        return { status: 'failed_permanently', reason: 'request aborted' };
      }
      // shared jobs take long enough that one instance alone cannot drain them between two polls
      // of the other, so sharing is observable and not left to timing
      await new Promise((r) => setTimeout(r, key.startsWith('shared-') ? 100 : 5));
      runs.push({ key, worker: workerName });
      const result = await (behaviours.get(key) ?? (() => ({ status: 'applied' }) as const))(
        attempt,
      );
      if (result instanceof Error) throw result;
      return result;
    };
  }

  const accounts = {
    forAccount: async (accountId: string, options?: { signal?: AbortSignal }) => {
      if (accountId !== TEST_ACCOUNT && accountId !== OTHER_ACCOUNT)
        throw new AccountUnavailableError(accountId, 'unknown_account');
      // the signal stands in for the clients it would be given to
      return { accountId, signal: options?.signal } as unknown as AccountContext;
    },
  };

  beforeAll(async () => {
    db = await openTestDatabase(backend);
    await db.prisma.account.createMany({
      data: [
        { id: TEST_ACCOUNT, zendeskSubdomain: 'acme' },
        { id: OTHER_ACCOUNT, zendeskSubdomain: 'other' },
      ],
    });
    boss = await createJobQueue(db, { supervise: true, schedule: false });
    await createSyncQueues(boss, { retryLimit: 2, retryDelay: 1 });
    const handler = handlerFor('one');
    worker = await startWorker({
      boss,
      db,
      accounts,
      handlers: { [INCIDENT_EVENT_QUEUE]: handler, [TICKET_EVENT_QUEUE]: handler },
      pollingIntervalSeconds: 0.5,
      failures: { retryLimit: 2, retryDelaySeconds: 1 },
    });
  });

  afterAll(async () => {
    await worker.stop();
    await db.dispose();
  });

  beforeEach(() => {
    runs.length = 0;
  });

  const send = (key: string, singletonKey = key, accountId = TEST_ACCOUNT) =>
    boss.send(
      TICKET_EVENT_QUEUE,
      { accountId, key },
      { singletonKey, ...syncJobOptions(accountId) },
    );

  async function stateOf(id: string | null) {
    const [job] = await boss.findJobs<unknown>(TICKET_EVENT_QUEUE, { id: id! });
    return (job as Job<unknown> & { state?: string })?.state;
  }

  it('runs a job with its account context and completes it', async () => {
    const id = await send('plain');
    await waitFor(async () => (await stateOf(id)) === 'completed');
    expect(attempts.get('plain')).toBe(1);
  });

  it('retries a job that throws and completes it once it succeeds', async () => {
    behaviours.set('flaky', (attempt) =>
      attempt < 2 ? new Error('zendesk 503') : { status: 'applied' },
    );
    const id = await send('flaky');
    await waitFor(async () => (await stateOf(id)) === 'completed');
    expect(attempts.get('flaky')).toBe(2);
    expect(await db.prisma.syncFailure.count({ where: { jobId: id! } })).toBe(0);
  });

  it('records a job that fails on every attempt as a sync failure and completes it', async () => {
    behaviours.set('broken', () => new Error('always down'));
    const id = await send('broken');
    await waitFor(async () => (await stateOf(id)) === 'completed');
    expect(attempts.get('broken')).toBe(3);
    const failure = await db.prisma.syncFailure.findFirstOrThrow({ where: { jobId: id! } });
    expect(failure).toMatchObject({
      accountId: TEST_ACCOUNT,
      queue: TICKET_EVENT_QUEUE,
      reason: 'Error: always down',
    });
  });

  it('records a permanent outcome at once, without retrying, and lets later jobs of the key run', async () => {
    behaviours.set('bad-threat', () => ({
      status: 'failed_permanently',
      reason: 'no threat on the ticket',
    }));
    const first = await send('bad-threat', 'ticket-7');
    const second = await send('after', 'ticket-7');
    await waitFor(async () => (await stateOf(second)) === 'completed');
    expect(attempts.get('bad-threat')).toBe(1);
    expect(await db.prisma.syncFailure.count({ where: { jobId: first! } })).toBe(1);
  });

  it('records a job run again after its process died having recorded the failure once', async () => {
    // the process recorded the failure and died before completing the job: pg-boss runs it again
    const id = '5f0c1f4e-0d3b-4c55-9a61-3f1a2b7c9d01';
    await db.prisma.syncFailure.create({
      data: {
        accountId: TEST_ACCOUNT,
        queue: TICKET_EVENT_QUEUE,
        jobId: id,
        reason: 'ticket closed',
        payload: { accountId: TEST_ACCOUNT, key: 'died-after-record' },
      },
    });
    behaviours.set('died-after-record', () => ({
      status: 'failed_permanently',
      reason: 'ticket closed',
    }));
    await boss.send(
      TICKET_EVENT_QUEUE,
      { accountId: TEST_ACCOUNT, key: 'died-after-record' },
      { id, singletonKey: 'died-after-record' },
    );
    await waitFor(async () => (await stateOf(id)) === 'completed');
    expect(attempts.get('died-after-record')).toBe(1);
    expect(await db.prisma.syncFailure.count({ where: { jobId: id } })).toBe(1);
  });

  it('a job that outran its timeout has its clients aborted, records nothing, and runs again', async () => {
    const id = await boss.send(
      TICKET_EVENT_QUEUE,
      { accountId: TEST_ACCOUNT, key: 'overrun' },
      { singletonKey: 'overrun', expireInSeconds: 1 },
    );
    await waitFor(async () => (await stateOf(id)) === 'completed');
    expect(attempts.get('overrun')).toBe(2);
    const [first] = signals.get('overrun')!;
    expect(first?.aborted).toBe(true);
    expect(await db.prisma.syncFailure.count({ where: { jobId: id! } })).toBe(0);
  });

  it('runs the jobs of one key one at a time, in order', async () => {
    const keys = ['k-1', 'k-2', 'k-3', 'k-4', 'k-5'];
    const ids: (string | null)[] = [];
    for (const key of keys) ids.push(await send(key, 'ticket-9'));
    await waitFor(async () =>
      (await Promise.all(ids.map(stateOf))).every((s) => s === 'completed'),
    );
    expect(runs.filter((r) => r.key.startsWith('k-')).map((r) => r.key)).toEqual(keys);
  });

  it('hands a deferred job back for its delay without counting the wait as a failure', async () => {
    // more deferrals than the failure limit (2): none of them may end the job as a failure
    behaviours.set('deferred', (attempt) =>
      attempt <= 4
        ? new JobDeferral(300, 'waiting for the report under way')
        : { status: 'applied' },
    );
    const started = Date.now();
    const id = await send('deferred');
    await waitFor(async () => (await stateOf(id)) === 'completed');
    expect(attempts.get('deferred')).toBe(5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 300);
    expect(await db.prisma.syncFailure.count({ where: { jobId: id! } })).toBe(0);
    const [job] = await boss.findJobs<{ deferrals?: number }>(TICKET_EVENT_QUEUE, { id: id! });
    expect(job?.data.deferrals).toBe(4);
  });

  it('a deferred job keeps its place: the later jobs of its key wait for it', async () => {
    behaviours.set('first-of-key', (attempt) =>
      attempt === 1 ? new JobDeferral(500, 'a claim is held') : { status: 'applied' },
    );
    const first = await send('first-of-key', 'ticket-12');
    const second = await send('second-of-key', 'ticket-12');
    await waitFor(async () => (await stateOf(second)) === 'completed');
    expect(await stateOf(first)).toBe('completed');
    const order = runs.map((r) => r.key).filter((k) => k.endsWith('-of-key'));
    expect(order).toEqual(['first-of-key', 'first-of-key', 'second-of-key']);
  });

  it("defers a job that met a 429 for the answer's Retry-After", async () => {
    const { ZendeskRateLimitedError } = await import('@incident-desk/zendesk-api');
    behaviours.set('limited', (attempt) =>
      attempt === 1
        ? new ZendeskRateLimitedError({
            status: 429,
            headers: new Headers({ 'retry-after': '1' }),
            body: {},
            method: 'PUT',
            path: '/api/v2/tickets/1.json',
            retryAfterSeconds: 1,
          })
        : { status: 'applied' },
    );
    const started = Date.now();
    const id = await send('limited');
    await waitFor(async () => (await stateOf(id)) === 'completed');
    expect(attempts.get('limited')).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(await db.prisma.syncFailure.count({ where: { jobId: id! } })).toBe(0);
  });

  it("one account's slow jobs never hold every slot: another account's job runs at once", async () => {
    let release!: () => void;
    const held = new Promise<SyncOutcome>((resolve) => {
      release = () => resolve({ status: 'applied' });
    });
    const slow = Array.from({ length: 6 }, (_, i) => `slow-${i}`);
    for (const key of slow) behaviours.set(key, () => held);
    const slowIds = await Promise.all(slow.map((key) => send(key)));
    // the account's share of the slots (2) is taken
    await waitFor(async () => (await Promise.all(slowIds.map(stateOf))).includes('active'));
    const quick = await send('quick-other', 'quick-other', OTHER_ACCOUNT);
    try {
      await waitFor(async () => (await stateOf(quick)) === 'completed');
      const states = await Promise.all(slowIds.map(stateOf));
      expect(states.filter((state) => state === 'active').length).toBeLessThanOrEqual(2);
    } finally {
      release();
    }
    await waitFor(async () =>
      (await Promise.all(slowIds.map(stateOf))).every((state) => state === 'completed'),
    );
  });

  it('does not retry a job whose account is unknown', async () => {
    const id = await send('orphan', 'orphan', '00000000-0000-4000-8000-00000000dead');
    await waitFor(async () => (await stateOf(id)) === 'completed');
    expect(attempts.get('orphan')).toBeUndefined();
  });

  it.runIf(backend === 'postgres')(
    'shares the queue with a second instance without running any job twice',
    async () => {
      const second = await createJobQueue(db, { supervise: false, schedule: false });
      const handler = handlerFor('two');
      const other = await startWorker({
        boss: second,
        db,
        accounts,
        handlers: { [INCIDENT_EVENT_QUEUE]: handler, [TICKET_EVENT_QUEUE]: handler },
        pollingIntervalSeconds: 0.5,
      });
      const keys = Array.from({ length: 60 }, (_, i) => `shared-${i}`);
      // without an account's group: its share of the slots is another test's matter
      const ids = await Promise.all(
        keys.map((key) =>
          boss.send(TICKET_EVENT_QUEUE, { accountId: TEST_ACCOUNT, key }, { singletonKey: key }),
        ),
      );
      await waitFor(async () =>
        (await Promise.all(ids.map(stateOf))).every((s) => s === 'completed'),
      );
      await other.stop();
      await second.stop({ graceful: true });
      const shared = runs.filter((r) => r.key.startsWith('shared-'));
      expect(shared.map((r) => r.key).sort()).toEqual([...keys].sort());
      expect(new Set(shared.map((r) => r.worker))).toEqual(new Set(['one', 'two']));
    },
  );
});

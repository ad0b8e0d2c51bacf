// Events for one ticket are applied in their event order. Deliveries that
// arrive together are committed in one inbox transaction, where every job shares its creation
// time; pg-boss then orders a key's jobs by id, so the ids must follow arrival order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, type PgBoss } from '@incident-desk/db';
import { INCIDENT_EVENT_QUEUE } from '../src/jobs/incident-event-job';
import { createInbox } from '../src/ingest/inbox';
import { orderedUuid } from '../src/ingest/ordered-id';
import { createSyncQueues } from '../src/worker/queues';
import { TEST_ACCOUNT } from './support/receiver';
import { backends, openTestDatabase } from './support/test-database';

describe('orderedUuid', () => {
  it('makes version 7 UUIDs that sort in the order they were made, within one millisecond too', () => {
    const ids = Array.from({ length: 5_000 }, () => orderedUuid(1_700_000_000_000));
    expect(
      ids.every((id) =>
        /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id),
      ),
    ).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    // a clock that steps back never makes an id sort before an earlier one
    const later = orderedUuid(1_600_000_000_000);
    expect(later > ids.at(-1)!).toBe(true);
  });
});

describe.each(backends)('inbox job order on %s', (backend) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let boss: PgBoss;

  beforeAll(async () => {
    db = await openTestDatabase(backend);
    await db.prisma.account.create({ data: { id: TEST_ACCOUNT, zendeskSubdomain: 'order' } });
    boss = await createJobQueue(db, { supervise: false, schedule: false });
    await createSyncQueues(boss);
  });

  afterAll(async () => {
    await db.dispose();
  });

  it('runs the jobs of one key in arrival order when they share a transaction', async () => {
    const inbox = createInbox(db, boss);
    const count = 30;
    // Accepted in the same event-loop turn: one batch, one transaction. The dedupe keys sort in
    // another order than arrival, as real event ids do.
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        inbox.accept({
          source: 'incident',
          dedupeKey: `${TEST_ACCOUNT}:evt_${(count - i) * 7919}`,
          accountId: TEST_ACCOUNT,
          payload: { i },
          job: { queue: INCIDENT_EVENT_QUEUE, data: { i }, singletonKey: `${TEST_ACCOUNT}:inc_1` },
        }),
      ),
    );
    const order: number[] = [];
    for (let n = 0; n < count; n += 1) {
      const [job] = await boss.fetch<{ i: number }>(INCIDENT_EVENT_QUEUE);
      if (!job) break;
      order.push(job.data.i);
      await boss.complete(INCIDENT_EVENT_QUEUE, job.id);
    }
    expect(order).toEqual(Array.from({ length: count }, (_, i) => i));
  });
});

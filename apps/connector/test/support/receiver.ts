import type { AddressInfo } from 'node:net';
import express, { type Router } from 'express';
import { createJobQueue, type PgBoss } from '@incident-desk/db';
import { errorHandler } from '../../src/http/app-error';
import { createInbox, type Inbox } from '../../src/ingest/inbox';
import { openTestDatabase, type Backend } from './test-database';

export const TEST_ACCOUNT = '00000000-0000-4000-8000-000000000001';

export interface ReceiverHarness {
  db: Awaited<ReturnType<typeof openTestDatabase>>;
  boss: PgBoss;
  baseUrl: string;
  counts(queue: string): Promise<{ receipts: number; jobs: number }>;
  close(): Promise<void>;
}

/** A fresh database with one account, the queues, and `router(inbox)` served on a free port. */
export async function startReceiver(
  backend: Backend,
  queues: string[],
  router: (inbox: Inbox) => Router,
): Promise<ReceiverHarness> {
  const db = await openTestDatabase(backend);
  await db.prisma.account.create({ data: { id: TEST_ACCOUNT, zendeskSubdomain: 'acme' } });
  const boss = await createJobQueue(db, { supervise: false, schedule: false });
  for (const queue of queues) await boss.createQueue(queue, { policy: 'key_strict_fifo' });
  const app = express();
  app.use(router(createInbox(db, boss)));
  app.use(errorHandler);
  const server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    db,
    boss,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts: async (queue) => ({
      receipts: await db.prisma.webhookReceipt.count(),
      jobs: (await boss.findJobs(queue)).length,
    }),
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await db.dispose();
    },
  };
}

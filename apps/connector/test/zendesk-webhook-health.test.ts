import type { TDatabase } from '@incident-desk/db';
import { describe, expect, it } from 'vitest';
import { throttledZendeskWebhookHealth } from '../src/sync/incident-events/account-health';

function fakeDb(fail: () => boolean = () => false) {
  const writes: { accountId: string; at: string }[] = [];
  const db = {
    prisma: {
      accountHealth: {
        upsert: async (args: {
          where: { accountId: string };
          update: { lastZendeskWebhookAt: Date };
        }) => {
          if (fail()) throw new Error('database unavailable');
          writes.push({
            accountId: args.where.accountId,
            at: args.update.lastZendeskWebhookAt.toISOString(),
          });
        },
      },
    },
  } as unknown as TDatabase;
  return { db, writes };
}

const at = (seconds: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, seconds));

describe('throttledZendeskWebhookHealth', () => {
  it('writes the first delivery of each account, then at most once a minute per account', async () => {
    const { db, writes } = fakeDb();
    const record = throttledZendeskWebhookHealth(db, 60_000);
    await record('a', at(0));
    await record('a', at(30));
    await record('b', at(31));
    await record('a', at(59));
    await record('a', at(60));
    expect(writes).toEqual([
      { accountId: 'a', at: at(0).toISOString() },
      { accountId: 'b', at: at(31).toISOString() },
      { accountId: 'a', at: at(60).toISOString() },
    ]);
  });

  it('a failed write is tried again on the next delivery', async () => {
    let failing = true;
    const { db, writes } = fakeDb(() => failing);
    const record = throttledZendeskWebhookHealth(db, 60_000);
    await expect(record('a', at(0))).rejects.toThrow('database unavailable');
    failing = false;
    await record('a', at(1));
    expect(writes).toEqual([{ accountId: 'a', at: at(1).toISOString() }]);
  });
});

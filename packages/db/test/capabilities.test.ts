import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilitiesOf, withAdvisoryLock, withSqlTransaction, type TDatabase } from '../src/index';
import { backends, createTestDatabase, type TestDatabase } from './helpers/test-database';

describe.each(backends)('database capabilities on %s', (backend) => {
  let target: TestDatabase;
  let db: TDatabase;

  beforeAll(async () => {
    target = await createTestDatabase(backend);
    db = await target.open();
    await db.prisma.$executeRawUnsafe('CREATE TABLE capability_probe (n int)');
  });
  afterAll(async () => {
    await db?.close();
    await target?.dispose();
  });

  it('says what the backend offers', () => {
    expect(capabilitiesOf(db)).toEqual(
      backend === 'pglite'
        ? { connections: 'single', listenNotify: false }
        : { connections: 'pool', listenNotify: true },
    );
  });

  it('commits a transaction that finishes and rolls back one that throws', async () => {
    await withSqlTransaction(db, (sql) =>
      sql.executeSql('INSERT INTO capability_probe VALUES (1)'),
    );
    await expect(
      withSqlTransaction(db, async (sql) => {
        await sql.executeSql('INSERT INTO capability_probe VALUES (2)');
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    const rows = await db.prisma.$queryRawUnsafe<{ n: number }[]>('SELECT n FROM capability_probe');
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('gives a lock one holder: `try` gives up while it is held, `wait` queues behind it', async () => {
    const order: string[] = [];
    let release!: () => void;
    const holding = withAdvisoryLock(db, 'probe', 'wait', async () => {
      order.push('first in');
      await new Promise<void>((resolve) => (release = resolve));
      order.push('first out');
    });
    await expect.poll(() => order).toEqual(['first in']);
    expect(await withAdvisoryLock(db, 'probe', 'try', async () => 'never')).toEqual({
      acquired: false,
    });
    const waiting = withAdvisoryLock(db, 'probe', 'wait', async () => order.push('second in'));
    expect(await withAdvisoryLock(db, 'another key', 'try', async () => 'free')).toEqual({
      acquired: true,
      value: 'free',
    });
    release();
    await holding;
    await waiting;
    expect(order).toEqual(['first in', 'first out', 'second in']);
    expect(await withAdvisoryLock(db, 'probe', 'try', async () => 'again')).toEqual({
      acquired: true,
      value: 'again',
    });
  });

  it('releases a lock whose work throws', async () => {
    await expect(
      withAdvisoryLock(db, 'thrown', 'wait', async () => {
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(await withAdvisoryLock(db, 'thrown', 'try', async () => 1)).toEqual({
      acquired: true,
      value: 1,
    });
  });
});

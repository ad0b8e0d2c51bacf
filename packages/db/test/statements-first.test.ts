// On PGlite's one connection, a webhook's durable write goes before the statements a worker has
// waiting: statements inside withStatementsFirst take the next turn, a transaction is one turn, and
// nothing else changes order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSqlTransaction, withStatementsFirst, type TPgliteDatabase } from '../src/index';
import { createTestDatabase, type TestDatabase } from './helpers/test-database';

describe('statements first on PGlite', () => {
  let target: TestDatabase;
  let db: TPgliteDatabase;

  beforeAll(async () => {
    target = await createTestDatabase('pglite');
    const opened = await target.open();
    if (opened.backend !== 'pglite') throw new Error('PGlite expected');
    db = opened;
  });
  afterAll(async () => {
    await db?.close();
    await target?.dispose();
  });

  /** Issues `count` statements of a busy worker at once; each records when it finished. */
  function backlog(count: number, finished: string[]): Promise<unknown>[] {
    return Array.from({ length: count }, (_, i) =>
      db.pglite
        .query('SELECT 1 AS n FROM pg_sleep(0.002)')
        .then(() => finished.push(`worker ${i}`)),
    );
  }

  it("takes the turn after the running statement, ahead of the worker's backlog", async () => {
    const finished: string[] = [];
    const worker = backlog(20, finished);
    const receipt = withStatementsFirst(() =>
      withSqlTransaction(db, async (sql) => {
        await sql.executeSql('SELECT 1');
        await sql.executeSql('SELECT 2');
      }),
    ).then(() => finished.push('receipt'));
    await Promise.all([...worker, receipt]);
    // the worker's first statement was running when the receipt came: it goes next
    expect(finished.indexOf('receipt')).toBe(1);
    expect(finished.filter((name) => name !== 'receipt')).toEqual(
      Array.from({ length: 20 }, (_, i) => `worker ${i}`),
    );
  });

  it('keeps the order of arrival among statements alike', async () => {
    const finished: string[] = [];
    const worker = [0, 1, 2].map((i) =>
      db.pglite
        .query('SELECT 1 AS n FROM pg_sleep(0.002)')
        .then(() => finished.push(`worker ${i}`)),
    );
    const calls = [0, 1, 2, 3].map((i) =>
      withStatementsFirst(() => db.pglite.query('SELECT $1::int AS n', [i])).then(() =>
        finished.push(`first ${i}`),
      ),
    );
    await Promise.all([...worker, ...calls]);
    expect(finished).toEqual([
      'worker 0',
      'first 0',
      'first 1',
      'first 2',
      'first 3',
      'worker 1',
      'worker 2',
    ]);
  });

  it('keeps a method assigned through the instance as it is: it takes its turn through the one it wraps', async () => {
    const pglite = db.pglite;
    const original = pglite.query;
    let counted = 0;
    pglite.query = ((...args: Parameters<typeof original>) => {
      counted += 1;
      return original(...args);
    }) as typeof original;
    try {
      await expect(pglite.query<{ n: number }>('SELECT 2 AS n')).resolves.toMatchObject({
        rows: [{ n: 2 }],
      });
      await db.prisma.$queryRawUnsafe('SELECT 3 AS n');
      expect(counted).toBe(2);
    } finally {
      pglite.query = original;
    }
  });

  it('gives the turn back when a statement fails', async () => {
    await expect(db.pglite.query('SELECT * FROM no_such_table')).rejects.toThrow();
    await expect(db.pglite.query<{ n: number }>('SELECT 1 AS n')).resolves.toMatchObject({
      rows: [{ n: 1 }],
    });
  });
});

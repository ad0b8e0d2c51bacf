// Every statement sent to the database is counted once (statement-count.ts): plain SQL on the
// driver, a transaction's BEGIN and COMMIT with what it holds, Prisma's statements, pg-boss's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createJobQueue,
  querySql,
  withSqlTransaction,
  withStatementsFirst,
  type TDatabase,
} from '../src/index';
import { backends, createTestDatabase, type TestDatabase } from './helpers/test-database';

describe.each(backends)('statements counted on %s', (backend) => {
  let target: TestDatabase;
  let db: TDatabase;

  beforeAll(async () => {
    target = await createTestDatabase(backend);
    db = await target.open();
  });
  afterAll(async () => {
    await db?.close();
    await target?.dispose();
  });

  /** How many statements `work` sent. */
  async function sentBy(work: () => Promise<unknown>): Promise<number> {
    const before = db.statements.sent;
    await work();
    return db.statements.sent - before;
  }

  it('counts the migrations it applied', () => {
    expect(db.statements.sent).toBeGreaterThan(db.appliedMigrations.length);
  });

  it('counts one per statement on the driver, failed ones too', async () => {
    expect(await sentBy(() => querySql(db, 'SELECT 1 AS n'))).toBe(1);
    expect(
      await sentBy(async () => {
        await querySql(db, 'SELECT $1::int AS n', [2]);
        await withStatementsFirst(() => querySql(db, 'SELECT 3 AS n'));
      }),
    ).toBe(2);
    expect(
      await sentBy(() => querySql(db, 'SELECT * FROM no_such_table').catch(() => undefined)),
    ).toBe(1);
  });

  it("counts a transaction's BEGIN and COMMIT with each statement inside it", async () => {
    expect(
      await sentBy(() =>
        withSqlTransaction(db, async (sql) => {
          await sql.executeSql('SELECT 1');
          await sql.executeSql('SELECT 2');
        }),
      ),
    ).toBe(4);
    // rolled back: BEGIN, the failed statement, ROLLBACK
    expect(
      await sentBy(() =>
        withSqlTransaction(db, async (sql) => {
          await sql.executeSql('SELECT * FROM no_such_table');
        }).catch(() => undefined),
      ),
    ).toBe(3);
  });

  it("counts Prisma's statements", async () => {
    await db.prisma.$queryRawUnsafe('SELECT 1'); // a first query may set the connection up
    expect(await sentBy(() => db.prisma.$queryRawUnsafe('SELECT 2 AS n'))).toBe(1);
    expect(
      await sentBy(() =>
        db.prisma.$transaction(async (tx) => {
          await tx.$queryRawUnsafe('SELECT 3 AS n');
          await tx.$queryRawUnsafe('SELECT 4 AS n');
        }),
      ),
    ).toBeGreaterThanOrEqual(4);
  });

  it("counts pg-boss's statements once the queue runs", async () => {
    const boss = await createJobQueue(db, { supervise: false, schedule: false });
    await boss.createQueue('counted');
    // pg-boss's pool counts a client from its next checkout: one send warms them up
    await boss.send('counted', { warm: true });
    const sent = await sentBy(async () => {
      for (let i = 0; i < 5; i++) await boss.send('counted', { i });
    });
    expect(sent).toBeGreaterThanOrEqual(5);
    expect(sent).toBeLessThan(50);
  });
});

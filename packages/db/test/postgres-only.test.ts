import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createJobQueue,
  migrationsDir,
  parsePostgresUrl,
  readMigrations,
  type TDatabase,
} from '../src/index';
import { createTestDatabase, type TestDatabase } from './helpers/test-database';

const migrationNames = readMigrations(migrationsDir).map((migration) => migration.name);

describe.runIf(process.env.DATABASE_URL)(
  'openDatabase on postgres: schemas and concurrent starts',
  () => {
    let target: TestDatabase;
    const opened: TDatabase[] = [];

    beforeAll(async () => {
      target = await createTestDatabase('postgres');
    });

    afterAll(async () => {
      await Promise.all(opened.map((db) => db.close()));
      await target?.dispose();
    });

    it('migrates once when several instances start at the same time (advisory lock)', async () => {
      const dbs = await Promise.all([target.open(), target.open(), target.open(), target.open()]);
      opened.push(...dbs);
      const applied = dbs.map((db) => db.appliedMigrations);
      expect(applied.filter((names) => names.length > 0)).toEqual([migrationNames]);
      const rows = await dbs[0]!.prisma.$queryRawUnsafe<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM "_prisma_migrations"',
      );
      expect(rows).toEqual([{ n: migrationNames.length }]);
    });

    it('keeps schemas apart: ?schema= in the URL and the schema option', async () => {
      const url = new URL(target.options.databaseUrl as string);
      url.searchParams.set('schema', 'tenant_a');
      const a = await target.open({ databaseUrl: url.toString() });
      const b = await target.open({ schema: 'tenant_b' });
      opened.push(a, b);
      expect(a.backend === 'postgres' && a.schema).toBe('tenant_a');
      expect(b.backend === 'postgres' && b.schema).toBe('tenant_b');
      expect(a.appliedMigrations).toEqual(migrationNames);
      expect(b.appliedMigrations).toEqual(migrationNames);

      await a.prisma.account.create({ data: { zendeskSubdomain: 'only-in-a' } });
      await expect(b.prisma.account.count()).resolves.toBe(0);
      await expect(a.prisma.account.count()).resolves.toBe(1);

      const client = new pg.Client({ connectionString: target.options.databaseUrl as string });
      await client.connect();
      try {
        const { rows } = await client.query<{ table_schema: string }>(
          "SELECT table_schema FROM information_schema.tables WHERE table_name = 'account' ORDER BY 1",
        );
        expect(rows.map((row) => row.table_schema)).toEqual(['public', 'tenant_a', 'tenant_b']);
        // Raw SQL on the handle's pool finds its own schema's tables unqualified.
        if (a.backend !== 'postgres') throw new Error('expected postgres');
        const raw = await a.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM account');
        expect(raw.rows).toEqual([{ n: 1 }]);
      } finally {
        await client.end();
      }
    });

    it('sizes both pools as told, and a query that finds no free connection fails after the acquire timeout', async () => {
      const db = await target.open({ poolSize: 2, acquireTimeoutMs: 300 });
      opened.push(db);
      if (db.backend !== 'postgres') throw new Error('expected postgres');
      expect(db.pool.options).toMatchObject({ max: 2, connectionTimeoutMillis: 300 });
      const held = [await db.pool.connect(), await db.pool.connect()];
      try {
        const started = Date.now();
        await expect(db.prisma.account.count()).rejects.toThrow(/timeout/i);
        expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      } finally {
        for (const client of held) client.release();
      }
      await expect(db.prisma.account.count()).resolves.toBeTypeOf('number');

      const boss = await createJobQueue(db, { supervise: false, schedule: false, poolSize: 3 });
      const bossPool = (boss.getDb() as unknown as { pool: { options: { max: number } } }).pool;
      expect(bossPool.options.max).toBe(3);
    });

    it('the pools keep their defaults: 10 connections, a 10 s acquire timeout', async () => {
      const db = await target.open();
      opened.push(db);
      if (db.backend !== 'postgres') throw new Error('expected postgres');
      expect(db.pool.options).toMatchObject({ max: 10, connectionTimeoutMillis: 10_000 });
    });
  },
);

describe('parsePostgresUrl', () => {
  it('splits the schema parameter off and validates it', () => {
    expect(parsePostgresUrl('postgres://u@h:5432/d?schema=app&sslmode=disable')).toEqual({
      connectionString: 'postgres://u@h:5432/d?sslmode=disable',
      schema: 'app',
    });
    expect(parsePostgresUrl('postgresql://u@h/d', 'other').schema).toBe('other');
    expect(parsePostgresUrl('postgres://u@h/d').schema).toBe('public');
    expect(() => parsePostgresUrl('postgres://u@h/d?schema=Bad-Name')).toThrow(
      /schema "Bad-Name" is not supported/,
    );
    expect(() => parsePostgresUrl('mysql://u@h/d')).toThrow(/must start with postgres/);
    expect(() => parsePostgresUrl('not a url')).toThrow(/not a valid URL/);
  });
});

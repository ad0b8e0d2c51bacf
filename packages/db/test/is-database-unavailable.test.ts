import { createServer, type AddressInfo } from 'node:net';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '../src/generated/client';
import { isDatabaseUnavailable, type TDatabase } from '../src/index';
import { backends, createTestDatabase, type TestDatabase } from './helpers/test-database';

/** A port with nothing listening on it: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const caught = (work: Promise<unknown>) =>
  work.then(
    () => {
      throw new Error('expected the statement to fail');
    },
    (error: unknown) => error,
  );

describe('isDatabaseUnavailable: errors of a database that is not there', () => {
  it('is true for Prisma and node-postgres reaching a closed port', async () => {
    const url = `postgres://postgres@127.0.0.1:${await closedPort()}/test`;
    const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 2_000 });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    try {
      const viaModel = await caught(prisma.account.findMany({ take: 1 }));
      expect(viaModel).toMatchObject({ code: 'P1001' });
      expect(isDatabaseUnavailable(viaModel)).toBe(true);
      // raw SQL fails as P2010, with the adapter's error kind inside
      expect(isDatabaseUnavailable(await caught(prisma.$queryRawUnsafe('SELECT 1')))).toBe(true);
      expect(isDatabaseUnavailable(await caught(pool.query('SELECT 1')))).toBe(true);
    } finally {
      await prisma.$disconnect();
      await pool.end();
    }
  });

  it('reads a lost connection through the cause chain, and nothing else', () => {
    const lost = new Error('Connection terminated unexpectedly');
    expect(isDatabaseUnavailable(new Error('job failed', { cause: lost }))).toBe(true);
    expect(
      isDatabaseUnavailable({ code: '57P03', message: 'the database system is starting up' }),
    ).toBe(true);
    expect(isDatabaseUnavailable({ code: '08006' })).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated by a typo in a test'))).toBe(
      false,
    );
    expect(isDatabaseUnavailable({ code: '23505' })).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});

describe.each(backends)(
  'isDatabaseUnavailable on %s: refusals are not unavailability',
  (backend) => {
    let target: TestDatabase;
    let db: TDatabase;

    beforeAll(async () => {
      target = await createTestDatabase(backend);
      db = await target.open();
      await db.prisma.$executeRawUnsafe('CREATE TABLE unavailable_probe (n int PRIMARY KEY)');
    });
    afterAll(async () => {
      await db?.close();
      await target?.dispose();
    });

    it('is false for a unique violation, a bad value and a missing table', async () => {
      await db.prisma.$executeRawUnsafe('INSERT INTO unavailable_probe VALUES (1)');
      const duplicate = await caught(
        db.prisma.$executeRawUnsafe('INSERT INTO unavailable_probe VALUES (1)'),
      );
      expect(duplicate).toMatchObject({ code: 'P2010' });
      expect(isDatabaseUnavailable(duplicate)).toBe(false);
      const badValue = await caught(db.prisma.account.findUnique({ where: { id: 'not-a-uuid' } }));
      expect(isDatabaseUnavailable(badValue)).toBe(false);
      expect(
        isDatabaseUnavailable(await caught(db.prisma.$queryRawUnsafe('SELECT * FROM nowhere'))),
      ).toBe(false);
    });

    it.runIf(backend === 'postgres')(
      'is true for a statement whose connection the server terminated (a restart cuts them so)',
      async () => {
        if (db.backend !== 'postgres') return;
        const sleeping = caught(db.prisma.$queryRawUnsafe('SELECT pg_sleep(30)'));
        const admin = new pg.Client({ connectionString: db.connectionString });
        await admin.connect();
        try {
          await expect
            .poll(async () => {
              const { rowCount } = await admin.query(
                `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE query = 'SELECT pg_sleep(30)' AND pid <> pg_backend_pid()`,
              );
              return rowCount;
            })
            .toBe(1);
        } finally {
          await admin.end();
        }
        const error = await sleeping;
        expect(isDatabaseUnavailable(error)).toBe(true);
        // the pool replaces the dropped connection: the next statement succeeds
        await expect(db.prisma.$queryRawUnsafe('SELECT 1')).resolves.toBeDefined();
      },
    );
  },
);

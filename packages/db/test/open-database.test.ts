import { PGlite } from '@electric-sql/pglite';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isUniqueViolation,
  MigrationError,
  migrationsDir,
  readMigrations,
  type TDatabase,
} from '../src/index';
import { backends, createTestDatabase, type TestDatabase } from './helpers/test-database';

const migrationNames = readMigrations(migrationsDir).map((migration) => migration.name);

type MigrationRow = {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
  logs: string | null;
};

function readHistory(db: TDatabase): Promise<MigrationRow[]> {
  return db.prisma.$queryRawUnsafe<MigrationRow[]>(
    'SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count, logs FROM "_prisma_migrations" ORDER BY migration_name',
  );
}

describe.each(backends)('openDatabase on %s', (backend) => {
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

  it('migrates an empty database, recording each migration as prisma migrate deploy does', async () => {
    expect(migrationNames.length).toBeGreaterThan(0);
    expect(db.backend).toBe(backend);
    expect(db.appliedMigrations).toEqual(migrationNames);

    const history = await readHistory(db);
    expect(history.map((row) => row.migration_name)).toEqual(migrationNames);
    for (const row of history) {
      const sql = readFileSync(path.join(migrationsDir, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.logs).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
    await expect(db.prisma.account.count()).resolves.toBe(0);
  });

  it('re-opens with nothing pending and the data kept', async () => {
    await db.prisma.account.create({ data: { zendeskSubdomain: 'reopen' } });
    await db.close();
    db = await target.open();
    expect(db.appliedMigrations).toEqual([]);
    expect((await readHistory(db)).map((row) => row.migration_name)).toEqual(migrationNames);
    await expect(
      db.prisma.account.findUnique({ where: { zendeskSubdomain: 'reopen' } }),
    ).resolves.not.toBeNull();
  });

  it('creates, reads and updates rows of every model', async () => {
    const account = await db.prisma.account.create({ data: { zendeskSubdomain: 'crud' } });
    const link = await db.prisma.incidentLink.create({
      data: { accountId: account.id, incidentId: 'inc_crud', ticketId: 9_007_199_254_740_993n },
    });
    await db.prisma.webhookReceipt.create({
      data: {
        accountId: account.id,
        source: 'zendesk',
        dedupeKey: 'ticket-report:1:takedown',
        payload: { ticketId: 1 },
      },
    });
    await db.prisma.ticketSyncState.create({
      data: {
        accountId: account.id,
        ticketId: 1n,
        lastEventAt: new Date('2026-11-01T10:00:00.123Z'),
        lastStatus: 'new',
      },
    });

    const read = await db.prisma.account.findUniqueOrThrow({
      where: { id: account.id },
      include: { incidentLinks: true, webhookReceipts: true, ticketSyncStates: true },
    });
    expect(read.incidentLinks).toEqual([link]);
    expect(read.incidentLinks[0]?.ticketId).toBe(9_007_199_254_740_993n); // beyond 2^53: stored exactly
    expect(read.webhookReceipts[0]).toMatchObject({ source: 'zendesk', payload: { ticketId: 1 } });
    expect(read.ticketSyncStates[0]?.lastEventAt.toISOString()).toBe('2026-11-01T10:00:00.123Z');

    const updated = await db.prisma.ticketSyncState.update({
      where: { accountId_ticketId: { accountId: account.id, ticketId: 1n } },
      data: { lastStatus: 'takedown_success', lastEventAt: new Date('2026-11-02T00:00:00Z') },
    });
    expect(updated.lastStatus).toBe('takedown_success');
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(updated.createdAt.getTime());
    await expect(
      db.prisma.ticketSyncState.findUnique({
        where: { accountId_ticketId: { accountId: account.id, ticketId: 1n } },
      }),
    ).resolves.toMatchObject({ lastStatus: 'takedown_success' });
  });

  it('reports unique violations as such, through Prisma and through raw SQL', async () => {
    const account = await db.prisma.account.create({ data: { zendeskSubdomain: 'unique' } });
    await db.prisma.incidentLink.create({
      data: { accountId: account.id, incidentId: 'inc_u', ticketId: 10n },
    });

    const sameIncident = await db.prisma.incidentLink
      .create({ data: { accountId: account.id, incidentId: 'inc_u', ticketId: 11n } })
      .catch((error: unknown) => error);
    expect(sameIncident).toMatchObject({ code: 'P2002' });
    expect(isUniqueViolation(sameIncident)).toBe(true);

    const sameTicket = await db.prisma.incidentLink
      .create({ data: { accountId: account.id, incidentId: 'inc_other', ticketId: 10n } })
      .catch((error: unknown) => error);
    expect(isUniqueViolation(sameTicket)).toBe(true);

    const receipt = { source: 'incident' as const, dedupeKey: 'evt_1', payload: {} };
    await db.prisma.webhookReceipt.create({ data: receipt });
    const redelivery = await db.prisma.webhookReceipt
      .create({ data: receipt })
      .catch((error: unknown) => error);
    expect(isUniqueViolation(redelivery)).toBe(true);
    // The same key from the other source is a different delivery.
    await db.prisma.webhookReceipt.create({ data: { ...receipt, source: 'zendesk' } });

    const rawSql =
      'INSERT INTO account (id, zendesk_subdomain, updated_at) VALUES (gen_random_uuid(), $1, now())';
    const raw =
      db.backend === 'pglite'
        ? await db.pglite.query(rawSql, ['unique']).catch((error: unknown) => error)
        : await db.pool.query(rawSql, ['unique']).catch((error: unknown) => error);
    expect(isUniqueViolation(raw)).toBe(true);

    expect(isUniqueViolation(new Error('boom'))).toBe(false);
    expect(isUniqueViolation({ code: 'P2025' })).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });

  it('keeps nothing of a rolled-back transaction', async () => {
    const failure = await db.prisma
      .$transaction(async (tx) => {
        const account = await tx.account.create({ data: { zendeskSubdomain: 'rolled-back' } });
        await tx.incidentLink.create({
          data: { accountId: account.id, incidentId: 'inc_rb', ticketId: 1n },
        });
        throw new Error('abort after two writes');
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ message: 'abort after two writes' });
    await expect(
      db.prisma.account.count({ where: { zendeskSubdomain: 'rolled-back' } }),
    ).resolves.toBe(0);
    await expect(db.prisma.incidentLink.count({ where: { incidentId: 'inc_rb' } })).resolves.toBe(
      0,
    );

    // A constraint failure inside a batch undoes the batch's earlier writes too.
    const existing = await db.prisma.account.create({
      data: { zendeskSubdomain: 'batch-existing' },
    });
    await expect(
      db.prisma.$transaction([
        db.prisma.account.create({ data: { zendeskSubdomain: 'batch-new' } }),
        db.prisma.account.create({ data: { zendeskSubdomain: existing.zendeskSubdomain } }),
      ]),
    ).rejects.toMatchObject({ code: 'P2002' });
    await expect(
      db.prisma.account.count({ where: { zendeskSubdomain: 'batch-new' } }),
    ).resolves.toBe(0);
  });

  it('scopes links by account: one account never resolves another account’s incident or ticket', async () => {
    const a = await db.prisma.account.create({ data: { zendeskSubdomain: 'scope-a' } });
    const b = await db.prisma.account.create({ data: { zendeskSubdomain: 'scope-b' } });
    await db.prisma.incidentLink.create({
      data: { accountId: a.id, incidentId: 'inc_shared', ticketId: 100n },
    });

    const byIncident = { accountId_incidentId: { accountId: b.id, incidentId: 'inc_shared' } };
    await expect(db.prisma.incidentLink.findUnique({ where: byIncident })).resolves.toBeNull();
    const byTicket = { accountId_ticketId: { accountId: b.id, ticketId: 100n } };
    await expect(db.prisma.incidentLink.findUnique({ where: byTicket })).resolves.toBeNull();
    // The same ids are free in account B.
    await db.prisma.incidentLink.create({
      data: { accountId: b.id, incidentId: 'inc_shared', ticketId: 100n },
    });
    await expect(
      db.prisma.incidentLink.count({ where: { incidentId: 'inc_shared' } }),
    ).resolves.toBe(2);

    // Deleting an account deletes its rows only.
    await db.prisma.account.delete({ where: { id: a.id } });
    await expect(
      db.prisma.incidentLink.findMany({ where: { incidentId: 'inc_shared' } }),
    ).resolves.toMatchObject([{ accountId: b.id }]);
  });

  it('applies a new migration on the next open and skips the applied ones', async () => {
    const dir = path.join(target.tempDir, 'migrations-with-extra');
    cpSync(migrationsDir, dir, { recursive: true });
    mkdirSync(path.join(dir, '99990101000000_extra'));
    writeFileSync(
      path.join(dir, '99990101000000_extra', 'migration.sql'),
      'CREATE TABLE "extra" ("id" INTEGER PRIMARY KEY);\n',
    );
    await db.close();
    db = await target.open({ migrationsDir: dir });
    expect(db.appliedMigrations).toEqual(['99990101000000_extra']);
    await expect(
      db.prisma.$queryRawUnsafe('SELECT count(*)::int AS n FROM "extra"'),
    ).resolves.toEqual([{ n: 0 }]);
    // Opening with the older history (a previous release) leaves the newer migration alone.
    await db.close();
    db = await target.open();
    expect(db.appliedMigrations).toEqual([]);
  });

  it('refuses to start when an applied migration was edited, and applies nothing', async () => {
    const dir = path.join(target.tempDir, 'migrations-edited');
    cpSync(migrationsDir, dir, { recursive: true });
    const first = migrationNames[0] as string;
    writeFileSync(
      path.join(dir, first, 'migration.sql'),
      `${readFileSync(path.join(dir, first, 'migration.sql'), 'utf8')}\n-- edited\n`,
    );
    mkdirSync(path.join(dir, '99990102000000_after_edit'));
    writeFileSync(
      path.join(dir, '99990102000000_after_edit', 'migration.sql'),
      'CREATE TABLE "after_edit" ("id" INTEGER);\n',
    );
    await db.close();

    const error = await target.open({ migrationsDir: dir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toContain(
      `Migration ${first} was modified after it was applied`,
    );

    db = await target.open();
    const tables = await db.prisma.$queryRawUnsafe<unknown[]>(
      "SELECT 1 FROM information_schema.tables WHERE table_name = 'after_edit'",
    );
    expect(tables).toEqual([]);
  });

  it('rolls back every migration of an open when one fails', async () => {
    const dir = path.join(target.tempDir, 'migrations-failing');
    cpSync(migrationsDir, dir, { recursive: true });
    mkdirSync(path.join(dir, '99990103000000_good'));
    writeFileSync(
      path.join(dir, '99990103000000_good', 'migration.sql'),
      'CREATE TABLE "good" ("id" INTEGER);\n',
    );
    mkdirSync(path.join(dir, '99990104000000_bad'));
    writeFileSync(
      path.join(dir, '99990104000000_bad', 'migration.sql'),
      'CREATE TABLE "bad" ("id" NOT_A_TYPE);\n',
    );
    await db.close();

    await expect(target.open({ migrationsDir: dir })).rejects.toThrow(
      /Migration 99990104000000_bad failed.*not_a_type/,
    );
    db = await target.open();
    const history = await readHistory(db);
    expect(history.map((row) => row.migration_name)).not.toContain('99990103000000_good');
    const tables = await db.prisma.$queryRawUnsafe<unknown[]>(
      "SELECT 1 FROM information_schema.tables WHERE table_name = 'good'",
    );
    expect(tables).toEqual([]);
  });

  it('refuses to start while _prisma_migrations records an unfinished migration', async () => {
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ('unfinished-1', 'x', '99990105000000_half', now())`,
    );
    await db.close();
    const error = await target.open().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toContain('Migration 99990105000000_half failed earlier');

    // Marked rolled back (what `prisma migrate resolve --rolled-back` does), it no longer blocks.
    await runSqlOutsideOpenDatabase(
      target,
      `UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE id = 'unfinished-1'`,
    );
    db = await target.open();
    expect(db.appliedMigrations).toEqual([]);
  });
});

/** For repairs while openDatabase refuses the database. */
async function runSqlOutsideOpenDatabase(target: TestDatabase, sql: string): Promise<void> {
  if (target.backend === 'pglite') {
    const pglite = await PGlite.create(target.options.pgliteDir as string);
    await pglite.exec(sql);
    await pglite.close();
    return;
  }
  const client = new pg.Client({ connectionString: target.options.databaseUrl as string });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

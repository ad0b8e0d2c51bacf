import { randomUUID } from 'node:crypto';
import type { MigrationFile } from './read-migrations';

/** What applying migrations needs from a connection that is inside a transaction. */
type MigrationSession = {
  /** Runs a script of any number of statements, without parameters. */
  exec(sql: string): Promise<void>;
  query<TRow>(sql: string, params?: unknown[]): Promise<TRow[]>;
};

/** Runs `work` in one transaction on one connection, committing when it resolves. */
export type TRunInTransaction = <T>(work: (session: MigrationSession) => Promise<T>) => Promise<T>;

export class MigrationError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

// The key `prisma migrate deploy` locks on PostgreSQL, so it and we never migrate at the same time.
const prismaAdvisoryLockKey = 72707369;

// Prisma's own definition, so `prisma migrate status/deploy` read our bookkeeping and we read theirs.
const createMigrationsTable = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

type AppliedRow = {
  migration_name: string;
  checksum: string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
};

/**
 * Applies the pending migrations in order, all in one transaction under Prisma's advisory lock, and
 * records each in `_prisma_migrations` as `prisma migrate deploy` does. Returns the names applied.
 * `schema` (PostgreSQL only) is created if missing and becomes the transaction's search_path.
 */
export async function applyMigrations(
  runInTransaction: TRunInTransaction,
  migrations: MigrationFile[],
  schema?: string,
): Promise<string[]> {
  return runInTransaction(async (session) => {
    await session.query('SELECT pg_advisory_xact_lock($1)', [prismaAdvisoryLockKey]);
    if (schema !== undefined) {
      await session.exec(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
      await session.exec(`SET LOCAL search_path TO ${quoteIdentifier(schema)}`);
    }
    await session.exec(createMigrationsTable);
    const rows = await session.query<AppliedRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
    );
    const applied = checkHistory(rows, migrations);

    const pending = migrations.filter((migration) => !applied.has(migration.name));
    for (const migration of pending) {
      try {
        await session.exec(migration.sql);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new MigrationError(
          `Migration ${migration.name} failed, so none of this start's migrations were applied: ${reason}`,
          { cause: error },
        );
      }
      await session.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
    }
    return pending.map((migration) => migration.name);
  });
}

/** The names already applied; refuses a failed migration or an applied one whose file changed since. */
function checkHistory(rows: AppliedRow[], migrations: MigrationFile[]): Set<string> {
  const files = new Map(migrations.map((migration) => [migration.name, migration]));
  const applied = new Set<string>();
  for (const row of rows) {
    if (row.finished_at === null) {
      throw new MigrationError(
        `Migration ${row.migration_name} failed earlier and is recorded as unfinished in _prisma_migrations. ` +
          `Repair the database, then mark it with \`prisma migrate resolve\` before starting again.`,
      );
    }
    const file = files.get(row.migration_name);
    if (file && file.checksum !== row.checksum) {
      throw new MigrationError(
        `Migration ${row.migration_name} was modified after it was applied (checksum ${row.checksum} in the ` +
          `database, ${file.checksum} on disk). Restore the original migration.sql and put the change in a new migration.`,
      );
    }
    // A row without a file is a migration from a newer release (e.g. during a rolling deploy): leave it.
    applied.add(row.migration_name);
  }
  return applied;
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

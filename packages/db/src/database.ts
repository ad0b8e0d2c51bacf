import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { PrismaClient } from './generated/client';
import type { StatementCount } from './statement-count';

type DatabaseCommon = {
  prisma: PrismaClient;
  /** Migrations this open applied (empty when none were pending). */
  appliedMigrations: string[];
  /**
   * Statements sent so far, pg-boss's included (statement-count.ts): counted by this package,
   * read by the metrics.
   */
  statements: StatementCount;
  /**
   * Runs `hook` at the start of `close()`, before the connection goes: what lives on the
   * connection (a job queue) stops first. Hooks run in reverse order of registration.
   */
  onClose(hook: () => Promise<void>): void;
  /** Stops what was registered with onClose, disconnects, and releases the PGlite lock. Idempotent. */
  close(): Promise<void>;
};

export type TPgliteDatabase = DatabaseCommon & {
  backend: 'pglite';
  pglite: PGlite;
  /** Absolute path of the data folder. */
  dataDir: string;
};

export type TPostgresDatabase = DatabaseCommon & {
  backend: 'postgres';
  pool: pg.Pool;
  /** Connection URL without Prisma's `schema` parameter. */
  connectionString: string;
  /** The schema every table lives in (`public` unless chosen). */
  schema: string;
};

export type TDatabase = TPgliteDatabase | TPostgresDatabase;

/** Collects close hooks and makes close() run once, however often it is called. */
export function closeOnce(finish: () => Promise<void>): Pick<DatabaseCommon, 'onClose' | 'close'> {
  const hooks: Array<() => Promise<void>> = [];
  let closing: Promise<void> | undefined;
  return {
    onClose: (hook) => {
      hooks.push(hook);
    },
    close: () => {
      closing ??= (async () => {
        const errors: unknown[] = [];
        for (const hook of hooks.reverse()) {
          await hook().catch((error: unknown) => errors.push(error));
        }
        await finish();
        if (errors.length > 0)
          throw new AggregateError(errors, 'closing the database: a close hook failed');
      })();
      return closing;
    },
  };
}

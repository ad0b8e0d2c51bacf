import path from 'node:path';
import type { TDatabase } from './database';
import { readMigrations } from './migrations/read-migrations';
import { openPglite } from './open-pglite';
import { openPostgres } from './open-postgres';
import { baseDir, defaultPgliteDir, migrationsDir as defaultMigrationsDir } from './paths';

export type OpenDatabaseOptions = {
  /**
   * PostgreSQL URL. Default: the DATABASE_URL environment variable. Absent or empty means the
   * embedded PGlite; pass `null` to use PGlite whatever the environment says.
   */
  databaseUrl?: string | null;
  /** PostgreSQL schema for every table. Default: the URL's `?schema=`, else `public`. */
  schema?: string;
  /** PGlite data folder. Default: PGLITE_DIR, else `.data/pglite`; relative paths are from baseDir (paths.ts). */
  pgliteDir?: string;
  /** Default: the migrations of the build, or `prisma/migrations` of this repository (paths.ts). */
  migrationsDir?: string;
  /** Connections in the PostgreSQL pool. Default 10. */
  poolSize?: number;
  /**
   * How long a query waits for a free connection of the PostgreSQL pool (and a new connection to
   * open) before it fails, in ms. Default 10 000; 0 waits for ever.
   */
  acquireTimeoutMs?: number;
  /** Where errors of idle PostgreSQL connections go. Default: console.error. */
  onPoolError?: (error: Error) => void;
  /** Read instead of process.env. */
  env?: Record<string, string | undefined>;
};

/**
 * Opens the database and applies pending migrations: PostgreSQL when a URL is given (through
 * DATABASE_URL or the option), else PGlite in a local folder that this process locks.
 */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<TDatabase> {
  const env = options.env ?? process.env;
  const databaseUrl = options.databaseUrl === undefined ? env.DATABASE_URL : options.databaseUrl;
  const migrations = readMigrations(options.migrationsDir ?? defaultMigrationsDir);
  if (databaseUrl) {
    return openPostgres({
      databaseUrl,
      schema: options.schema,
      poolSize: options.poolSize ?? 10,
      acquireTimeoutMs: options.acquireTimeoutMs ?? 10_000,
      migrations,
      onPoolError:
        options.onPoolError ??
        ((error) =>
          console.error(
            `PostgreSQL pool error: ${error.name}: ${error.message.split('\n')[0]?.slice(0, 200)}`,
          )),
    });
  }
  const pgliteDir = options.pgliteDir ?? env.PGLITE_DIR;
  return openPglite(pgliteDir ? path.resolve(baseDir, pgliteDir) : defaultPgliteDir, migrations);
}

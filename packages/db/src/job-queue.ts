import type pg from 'pg';
import { PgBoss, fromPglite, type ConstructorOptions } from 'pg-boss';
import type { TDatabase } from './database';
import { countPoolQueries } from './statement-count';

export type TJobQueueOptions = Omit<
  ConstructorOptions,
  | 'db'
  | 'backend'
  | 'connectionString'
  | 'host'
  | 'port'
  | 'database'
  | 'user'
  | 'password'
  | 'schema'
  | 'max'
> & {
  /**
   * Connections in pg-boss's own pool on PostgreSQL (besides it, one connection for LISTEN when
   * `useListenNotify` is on). Default 10, pg-boss's. PGlite has its one connection.
   */
  poolSize?: number;
  /**
   * Schema of pg-boss's tables. Default `pgboss`, or `<schema>_pgboss` when the database uses a
   * schema other than `public`, so databases isolated by schema keep their jobs apart too.
   */
  schema?: string;
  /** pg-boss reports background failures as 'error' events. Default: console.error. */
  onError?: (error: Error) => void;
};

/** Where pg-boss keeps its tables for this database unless told otherwise. */
export function defaultJobQueueSchema(db: TDatabase): string {
  return db.backend === 'pglite' || db.schema === 'public' ? 'pgboss' : `${db.schema}_pgboss`;
}

/**
 * A started pg-boss on the database's backend: through the same PGlite instance (pg-boss's own
 * adapter; PGlite has one connection per process), or its own pool on PostgreSQL. It is stopped
 * when the database closes, before the connection goes.
 */
export async function createJobQueue(
  db: TDatabase,
  options: TJobQueueOptions = {},
): Promise<PgBoss> {
  const {
    // The error's name and first line only: its other properties can carry a query's parameters.
    onError = (error) =>
      console.error(
        `job queue error: ${error.name}: ${error.message.split('\n')[0]?.slice(0, 200)}`,
      ),
    schema,
    poolSize,
    ...rest
  } = options;
  const boss =
    db.backend === 'pglite'
      ? new PgBoss({
          ...rest,
          schema: schema ?? defaultJobQueueSchema(db),
          db: fromPglite(db.pglite),
          backend: 'pglite',
        })
      : new PgBoss({
          ...rest,
          schema: schema ?? defaultJobQueueSchema(db),
          connectionString: db.connectionString,
          backend: 'postgres',
          ...(poolSize === undefined ? {} : { max: poolSize }),
        });
  // Without a listener an 'error' event would throw and end the process.
  boss.on('error', onError);
  await boss.start();
  // its statements are the database's too: through the PGlite instance they are counted already,
  // on PostgreSQL its own pool's clients are counted from their next checkout
  if (db.backend === 'postgres') {
    const pool = (boss.getDb() as { pool?: pg.Pool }).pool;
    if (pool) countPoolQueries(pool, db.statements);
  }
  db.onClose(() => boss.stop({ graceful: true, timeout: 10_000 }));
  return boss;
}

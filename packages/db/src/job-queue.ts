import { PgBoss, fromPglite, type ConstructorOptions } from 'pg-boss';
import type { TDatabase } from './database';

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
> & {
  /**
   * Schema of pg-boss's tables. Default `pgboss`, or `<schema>_pgboss` when the database uses a
   * schema other than `public`, so databases isolated by schema keep their jobs apart too.
   */
  schema?: string;
  /** pg-boss reports background failures as 'error' events. Default: console.error. */
  onError?: (error: Error) => void;
};

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
    onError = (error) => console.error('job queue error:', error),
    schema,
    ...rest
  } = options;
  const boss =
    db.backend === 'pglite'
      ? new PgBoss({
          ...rest,
          schema: schema ?? 'pgboss',
          db: fromPglite(db.pglite),
          backend: 'pglite',
        })
      : new PgBoss({
          ...rest,
          schema: schema ?? (db.schema === 'public' ? 'pgboss' : `${db.schema}_pgboss`),
          connectionString: db.connectionString,
          backend: 'postgres',
        });
  // Without a listener an 'error' event would throw and end the process.
  boss.on('error', onError);
  await boss.start();
  db.onClose(() => boss.stop({ graceful: true, timeout: 10_000 }));
  return boss;
}

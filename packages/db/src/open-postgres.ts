import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { closeOnce, type TPostgresDatabase } from './database';
import { PrismaClient } from './generated/client';
import { applyMigrations } from './migrations/apply-migrations';
import type { MigrationFile } from './migrations/read-migrations';
import { parsePostgresUrl } from './postgres-url';
import { countQueries, newStatementCount } from './statement-count';

export type OpenPostgresOptions = {
  databaseUrl: string;
  schema?: string;
  poolSize: number;
  /** pg's connectionTimeoutMillis: a wait for a pooled connection longer than this fails. */
  acquireTimeoutMs: number;
  migrations: MigrationFile[];
  onPoolError: (error: Error) => void;
};

export async function openPostgres(options: OpenPostgresOptions): Promise<TPostgresDatabase> {
  const { connectionString, schema } = parsePostgresUrl(options.databaseUrl, options.schema);
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize,
    // Without it a query waits for a connection for ever, so an exhausted pool stalls silently.
    connectionTimeoutMillis: options.acquireTimeoutMs,
    // Raw SQL written by the app finds the tables without qualifying them.
    options: `-c search_path=${schema}`,
  });
  // An idle client losing its connection emits 'error' on the pool; unhandled, it would end the process.
  pool.on('error', options.onPoolError);
  // A client checked out (a Prisma transaction, a lock) whose connection drops (a database restart)
  // emits 'error' on itself, not on the pool; unhandled, that would end the process. Its query
  // fails on its own and the pool discards it. Each client's statements are counted from the start.
  const statements = newStatementCount();
  pool.on('connect', (client) => {
    client.on('error', options.onPoolError);
    countQueries(client, statements);
  });
  try {
    const appliedMigrations = await applyMigrations(
      async (work) => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const result = await work({
            exec: async (sql) => {
              await client.query(sql);
            },
            query: async <TRow>(sql: string, params?: unknown[]) =>
              (await client.query(sql, params)).rows as TRow[],
          });
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        } finally {
          client.release();
        }
      },
      options.migrations,
      schema,
    );
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { schema }) });
    return {
      backend: 'postgres',
      prisma,
      pool,
      connectionString,
      schema,
      appliedMigrations,
      statements,
      ...closeOnce(async () => {
        try {
          await prisma.$disconnect();
        } finally {
          await pool.end();
        }
      }),
    };
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}

// The ingest path writes with plain SQL on the driver, not through Prisma: one round trip per
// statement keeps acknowledgement latency close to the bare HTTP baseline.
import type { TDatabase } from '@incident-desk/db';

export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export async function inTransaction<T>(
  db: TDatabase,
  work: (sql: SqlExecutor) => Promise<T>,
): Promise<T> {
  if (db.backend === 'pglite') {
    return db.pglite.transaction((tx) =>
      work({
        executeSql: async (text, values) => ({
          rows: (await tx.query<Record<string, unknown>>(text, values)).rows,
        }),
      }),
    );
  }
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work({
      executeSql: async (text, values) => ({
        rows: (await client.query<Record<string, unknown>>(text, values)).rows,
      }),
    });
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

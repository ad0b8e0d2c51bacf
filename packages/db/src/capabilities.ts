// What the two backends can do, offered as capabilities, so the connector asks what it may rely
// on and never which database it runs on: transactions on one connection, locks with one holder
// per key, whether LISTEN/NOTIFY reaches other processes, and how many connections there are.
import type { TDatabase } from './database';
import { withPooledAdvisoryLock, type TLockOutcome } from './pooled-advisory-lock';

export interface DatabaseCapabilities {
  /** PGlite has one connection, which every caller shares in turn; PostgreSQL a pool. */
  connections: 'single' | 'pool';
  /** NOTIFY reaches other processes: PostgreSQL. PGlite is one process. */
  listenNotify: boolean;
}

export function capabilitiesOf(db: TDatabase): DatabaseCapabilities {
  return db.backend === 'pglite'
    ? { connections: 'single', listenNotify: false }
    : { connections: 'pool', listenNotify: true };
}

export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * One statement of plain SQL on the driver, outside a transaction: for hot paths, where Prisma's
 * query building would cost more than the statement itself.
 */
export async function querySql<TRow = Record<string, unknown>>(
  db: TDatabase,
  text: string,
  values?: unknown[],
): Promise<TRow[]> {
  if (db.backend === 'pglite') return (await db.pglite.query<TRow>(text, values)).rows;
  return (await db.pool.query(text, values)).rows as TRow[];
}

/** Plain SQL on the driver inside one transaction (no Prisma round trips); rolled back on error. */
export async function withSqlTransaction<T>(
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
  // A checked-out client whose connection drops (a database restart) emits 'error'; unhandled,
  // that would end the process. The failed query rejects on its own; the client is discarded.
  let broken = false;
  const onConnectionError = (): void => {
    broken = true;
  };
  client.on('error', onConnectionError);
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
    client.off('error', onConnectionError);
    client.release(broken);
  }
}

// PGlite is one process (its data folder is locked to it), and its advisory locks are re-entrant
// on its one connection: holders are kept here, per database handle.
const heldByDatabase = new WeakMap<TDatabase, Map<string, Promise<void>>>();

/**
 * Runs `work` as the one holder of `key`: across processes on PostgreSQL (a session advisory lock
 * on a pooled connection of its own), within the process on PGlite. `wait` queues behind the
 * holder; `try` gives up at once (`acquired: false`) when the key is held.
 */
export async function withAdvisoryLock<T>(
  db: TDatabase,
  key: string,
  mode: 'wait' | 'try',
  work: () => Promise<T>,
): Promise<TLockOutcome<T>> {
  if (db.backend === 'postgres') return withPooledAdvisoryLock(db.pool, key, mode, work);
  let held = heldByDatabase.get(db);
  if (!held) heldByDatabase.set(db, (held = new Map()));
  if (mode === 'try' && held.has(key)) return { acquired: false };
  while (held.has(key)) await held.get(key);
  let release!: () => void;
  held.set(key, new Promise<void>((resolve) => (release = resolve)));
  try {
    return { acquired: true, value: await work() };
  } finally {
    held.delete(key);
    release();
  }
}

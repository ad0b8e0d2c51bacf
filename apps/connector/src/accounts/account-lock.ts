// A per-account lock that holds across processes: a PostgreSQL session advisory lock on a
// connection kept for the duration. PGlite has one connection (advisory locks are re-entrant on
// it), so an in-process mutex does the serialising there; it also keeps same-process callers from
// each taking a pool connection just to wait.
import type { TDatabase } from '@incident-desk/db';

const LOCK_NAMESPACE = 'incident-desk:zendesk-token:';

// Per database handle: two handles on one PostgreSQL behave like two processes (tests rely on it).
const queuesByDatabase = new WeakMap<TDatabase, Map<string, Promise<unknown>>>();

async function inProcess<T>(db: TDatabase, key: string, work: () => Promise<T>): Promise<T> {
  let queues = queuesByDatabase.get(db);
  if (!queues) {
    queues = new Map();
    queuesByDatabase.set(db, queues);
  }
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(work, work);
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  try {
    return await run;
  } finally {
    if (queues.get(key) === settled) queues.delete(key);
  }
}

export function withAccountLock<T>(
  db: TDatabase,
  accountId: string,
  work: () => Promise<T>,
): Promise<T> {
  const key = `${LOCK_NAMESPACE}${accountId}`;
  return inProcess(db, key, async () => {
    if (db.backend === 'pglite') {
      await db.pglite.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
      try {
        return await work();
      } finally {
        await db.pglite.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
      }
    }
    const client = await db.pool.connect();
    let broken = false;
    try {
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
      try {
        return await work();
      } finally {
        await client
          .query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key])
          .catch(() => {
            broken = true;
          });
      }
    } finally {
      // A connection whose unlock failed may still hold the lock: destroy it rather than reuse it.
      client.release(broken);
    }
  });
}

// A PostgreSQL session advisory lock held on a pooled connection of its own for the duration of
// the work: across processes, one holder per key.
import type pg from 'pg';

export type TLockOutcome<T> = { acquired: true; value: T } | { acquired: false };

/**
 * `wait` blocks until the lock is free; `try` gives up at once when another session holds it.
 * A checked-out client whose connection drops (a database restart) emits 'error'; unhandled, that
 * would end the process. The lock dies with the connection, and the client is discarded, as is one
 * whose unlock failed (it may still hold the lock).
 */
export async function withPooledAdvisoryLock<T>(
  pool: pg.Pool,
  key: string,
  mode: 'wait' | 'try',
  work: () => Promise<T>,
): Promise<TLockOutcome<T>> {
  const client = await pool.connect();
  let broken = false;
  const onConnectionError = (): void => {
    broken = true;
  };
  client.on('error', onConnectionError);
  try {
    if (mode === 'wait') {
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
    } else {
      const { rows } = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
        [key],
      );
      if (!rows[0]?.locked) return { acquired: false };
    }
    try {
      return { acquired: true, value: await work() };
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch(() => {
        broken = true;
      });
    }
  } finally {
    client.off('error', onConnectionError);
    client.release(broken);
  }
}

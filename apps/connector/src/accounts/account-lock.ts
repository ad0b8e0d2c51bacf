// A per-account lock that holds across processes (the database's advisory lock). Same-process
// callers queue here first, so they do not each take a pool connection just to wait.
import { withAdvisoryLock, type TDatabase, type TLockOutcome } from '@incident-desk/db';

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
    const outcome = await withAdvisoryLock(db, key, 'wait', work);
    if (!outcome.acquired) throw new Error('a waited-for advisory lock was not acquired');
    return outcome.value;
  });
}

const SETUP_LOCK_NAMESPACE = 'incident-desk:account-setup:';

/**
 * What changes the account's objects in Zendesk and the incident service, one at a time across
 * processes: a setup run waits (`wait`) for a disconnect and a disconnect does not start while a
 * setup runs (`try`), so neither recreates nor half-removes what the other does.
 */
export function withAccountSetupLock<T>(
  db: TDatabase,
  accountId: string,
  mode: 'wait' | 'try',
  work: () => Promise<T>,
): Promise<TLockOutcome<T>> {
  return withAdvisoryLock(db, `${SETUP_LOCK_NAMESPACE}${accountId}`, mode, work);
}

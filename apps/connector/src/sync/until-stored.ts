// What a call to a service did is written down even across a database restart. Between a claim
// (the row that says a call is under way) and the write that settles it, a failed write would leave
// the claim behind, and the job's retry would take a call that never went out for one whose answer
// was lost: a reply never forwarded, a takedown request dropped with an "outcome unknown" note, a
// ticket opened for an incident left unlinked until its claim goes stale. So the writes that settle
// a call are retried while the database is unavailable, for up to STORE_WINDOW_MS (well inside a
// job's 300 s); a write the database refuses throws at once. The retried writes are idempotent, or
// fail plainly when an earlier try was committed after all (a claim already completed).
import { backoffDelayMs, sleep } from '@incident-desk/client-core';
import { isDatabaseUnavailable } from '@incident-desk/db';
import { logger } from '../log';

const STORE_WINDOW_MS = 120_000;
const BACKOFF = { initialMs: 100, maxMs: 5_000 };

export async function untilStored<T>(write: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + STORE_WINDOW_MS;
  for (let retry = 0; ; retry += 1) {
    try {
      return await write();
    } catch (error) {
      const delay = backoffDelayMs(retry, BACKOFF);
      if (!isDatabaseUnavailable(error) || Date.now() + delay > deadline) throw error;
      logger.warn('database unavailable: retrying the write that settles a call', {
        error,
        retry: retry + 1,
      });
      await sleep(delay);
    }
  }
}

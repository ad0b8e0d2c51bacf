import type { ZafClient } from './zafClient';

const SESSION_PATHS = ['currentUser', 'ticket.id', 'currentAccount'];

/** A get Zendesk never answers becomes an error (with a retry), never an endless skeleton. */
function withTimeout<T>(pending: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Zendesk did not answer')), timeoutMs);
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

const cache = new WeakMap<ZafClient, Promise<Record<string, unknown>>>();

/**
 * One ZAF round trip for what both the translations (agent locale, time zone) and the session
 * (agent, ticket, account) need: each get is a postMessage round trip through the host, and they
 * sit on the path to the first paint. A failure is not cached, so a retry asks again.
 */
export function getSessionFacts(
  client: ZafClient,
  timeoutMs = 10_000,
): Promise<Record<string, unknown>> {
  let pending = cache.get(client);
  if (!pending) {
    pending = withTimeout(client.get(SESSION_PATHS), timeoutMs);
    cache.set(client, pending);
    pending.catch(() => cache.delete(client));
  }
  return pending;
}

export function forgetSessionFacts(client: ZafClient): void {
  cache.delete(client);
}

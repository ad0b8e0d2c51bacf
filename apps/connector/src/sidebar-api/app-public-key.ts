// The app's public key, which Zendesk signs every ZAF JWT of the app with (one key per app, all
// installations). Fetched from Zendesk (GET /api/v2/apps/{app_id}/public_key.pem) and kept; when a
// token does not verify with it, the key may have rotated, so it is fetched once again, at most
// once per refetch interval whatever the number of failing tokens (a forged-token flood costs
// Zendesk one request per interval).
import { createPublicKey, type KeyObject } from 'node:crypto';

export interface AppPublicKeys {
  /** The cached key, fetched on first use. */
  current(fetchPem: () => Promise<string>): Promise<KeyObject>;
  /** A fresh key when the last fetch is older than the interval, else null (keep the failure). */
  refetched(fetchPem: () => Promise<string>): Promise<KeyObject | null>;
  /** The key fetched earlier, if any, without asking Zendesk. */
  kept(): Promise<KeyObject> | null;
}

export function createAppPublicKeys(options: {
  now: () => number;
  minRefetchIntervalMs: number;
}): AppPublicKeys {
  let key: Promise<KeyObject> | null = null;
  let fetchedAt = -Infinity;

  function fetchKey(fetchPem: () => Promise<string>): Promise<KeyObject> {
    fetchedAt = options.now();
    const pending = fetchPem().then((pem) => createPublicKey({ key: pem, format: 'pem' }));
    pending.catch(() => {
      if (key === pending) key = null;
    });
    key = pending;
    return pending;
  }

  return {
    current(fetchPem) {
      return key ?? fetchKey(fetchPem);
    },
    async refetched(fetchPem) {
      if (options.now() - fetchedAt < options.minRefetchIntervalMs) return null;
      return fetchKey(fetchPem);
    },
    kept() {
      return key;
    },
  };
}

// The session the connector put into this page when Zendesk's signed request opened it (the page
// is served by the connector: signedUrls). A bearer token the page holds, never a cookie (third-
// party cookies in Zendesk's iframe are unreliable), and never written by this code: it only
// renews it, shortly before it expires, until the cap the connector set.

export interface SessionToken {
  token: string;
  /** Epoch ms. */
  expiresAt: number;
  /** Epoch ms: no renewal past it; Zendesk must open the app again. */
  capAt: number;
}

export interface PageSession {
  /** A live token, renewed first when it is about to expire. */
  token(): Promise<string>;
}

/** Renew when less than this is left. */
const RENEW_BEFORE_MS = 5 * 60_000;

export function readSessionBlock(doc: Document = document): SessionToken | null {
  const text = doc.getElementById('incident-desk-session')?.textContent;
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as { token?: unknown; expiresAt?: unknown; capAt?: unknown };
    const expiresAt = Date.parse(String(parsed.expiresAt));
    const capAt = Date.parse(String(parsed.capAt));
    if (typeof parsed.token !== 'string' || Number.isNaN(expiresAt) || Number.isNaN(capAt))
      return null;
    return { token: parsed.token, expiresAt, capAt };
  } catch {
    return null;
  }
}

/** Why the connector could not open this page although Zendesk signed it, when it says so. */
export type PageFailure = 'reauthorization_required' | 'zendesk_unavailable';

export function readPageFailure(doc: Document = document): PageFailure | null {
  const text = doc.getElementById('incident-desk-page-error')?.textContent;
  if (!text) return null;
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code;
    // an unknown code reads as the temporary one: the agent is told to retry
    return code === 'reauthorization_required' ? code : 'zendesk_unavailable';
  } catch {
    return 'zendesk_unavailable';
  }
}

export function createPageSession(
  initial: SessionToken,
  options: { fetch?: typeof fetch; now?: () => number } = {},
): PageSession {
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const now = options.now ?? Date.now;
  let current = initial;
  let renewing: Promise<SessionToken> | null = null;

  async function renew(): Promise<SessionToken> {
    const response = await fetchImpl('/sidebar/session/renew', {
      method: 'POST',
      headers: { Authorization: `Bearer ${current.token}`, Accept: 'application/json' },
    });
    if (!response.ok) return current; // the call that follows answers 401: the view says so
    const body = (await response.json()) as { token: string; expiresAt: string; capAt: string };
    return {
      token: body.token,
      expiresAt: Date.parse(body.expiresAt),
      capAt: Date.parse(body.capAt),
    };
  }

  return {
    async token() {
      const left = current.expiresAt - now();
      if (left > RENEW_BEFORE_MS || current.expiresAt >= current.capAt) return current.token;
      renewing ??= renew()
        .catch(() => current)
        .finally(() => {
          renewing = null;
        });
      current = await renewing;
      return current.token;
    },
  };
}

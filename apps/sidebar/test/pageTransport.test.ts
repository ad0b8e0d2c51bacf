// The production way to the connector: same-origin fetch with the session the connector put into
// the page, renewed shortly before it expires and never past its cap.
import { describe, expect, it } from 'vitest';
import { createPageSession, readSessionBlock } from '../src/app/api/pageSession';
import { fetchTransport } from '../src/app/api/transport';

const MIN = 60_000;

function recordingFetch(answers: Record<string, () => Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return (answers[url] ?? (() => new Response('{}', { status: 200 })))();
  }) as unknown as typeof fetch;
  return { calls, fetchImpl };
}

describe('the page session', () => {
  it('reads the block the connector wrote, and nothing else', () => {
    document.head.innerHTML =
      '<script type="application/json" id="incident-desk-session">' +
      '{"token":"abc","expiresAt":"2026-11-23T10:15:00.000Z","capAt":"2026-11-23T22:00:00.000Z"}</script>';
    expect(readSessionBlock()).toEqual({
      token: 'abc',
      expiresAt: Date.parse('2026-11-23T10:15:00.000Z'),
      capAt: Date.parse('2026-11-23T22:00:00.000Z'),
    });
    document.head.innerHTML =
      '<script type="application/json" id="incident-desk-session">{oops</script>';
    expect(readSessionBlock()).toBeNull();
    document.head.innerHTML = '';
    expect(readSessionBlock()).toBeNull();
  });

  it('sends the token same-origin, renews it near expiry once, and stops at the cap', async () => {
    let clock = 0;
    const renewed = {
      token: 'second',
      expiresAt: new Date(40 * MIN).toISOString(),
      capAt: new Date(40 * MIN).toISOString(),
    };
    const { calls, fetchImpl } = recordingFetch({
      '/sidebar/session/renew': () => new Response(JSON.stringify(renewed), { status: 200 }),
    });
    const session = createPageSession(
      { token: 'first', expiresAt: 15 * MIN, capAt: 40 * MIN },
      { fetch: fetchImpl, now: () => clock },
    );
    const transport = fetchTransport(session, fetchImpl);
    await transport({ method: 'GET', path: '/sidebar/tickets/42', timeoutMs: 1000 });
    expect(calls.map((c) => c.url)).toEqual(['/sidebar/tickets/42']);
    expect(calls[0]!.init.headers).toMatchObject({ Authorization: 'Bearer first' });
    expect(calls[0]!.init.credentials).toBe('omit');

    clock = 11 * MIN; // under five minutes left: renewed first, once for two calls at the same time
    await Promise.all([
      transport({ method: 'GET', path: '/sidebar/tickets/42', timeoutMs: 1000 }),
      transport({
        method: 'POST',
        path: '/sidebar/tickets/42/actions/safe',
        body: '{}',
        timeoutMs: 1000,
      }),
    ]);
    expect(calls.filter((c) => c.url === '/sidebar/session/renew')).toHaveLength(1);
    expect(calls.at(-1)!.init.headers).toMatchObject({ Authorization: 'Bearer second' });

    clock = 39 * MIN; // the renewed token ends at the cap: no renewal past it
    await transport({ method: 'GET', path: '/sidebar/tickets/42', timeoutMs: 1000 });
    expect(calls.filter((c) => c.url === '/sidebar/session/renew')).toHaveLength(1);
  });

  it('reports a request that got no answer as status 0', async () => {
    const failing = (async () => {
      throw new TypeError('network down');
    }) as unknown as typeof fetch;
    const session = createPageSession({
      token: 't',
      expiresAt: Date.now() + 60 * MIN,
      capAt: Date.now() + 60 * MIN,
    });
    await expect(
      fetchTransport(session, failing)({ method: 'GET', path: '/x', timeoutMs: 1000 }),
    ).rejects.toMatchObject({ status: 0 });
  });
});

// A stand-in for the connector's /admin/api: each test says what every route answers, and reads
// what the page sent.
import { vi } from 'vitest';

export type Route = `${'GET' | 'POST' | 'PUT'} ${string}`;
type Answer = { status?: number; body?: unknown };

export function stubFetch(routes: Record<Route, Answer | (() => Answer | Promise<Answer>)>) {
  const calls: { route: string; body: unknown }[] = [];
  const fetchStub = vi.fn(async (input: string, init: RequestInit = {}) => {
    const route = `${init.method ?? 'GET'} ${input.replace(/^\/admin\/api/, '')}`;
    calls.push({ route, body: init.body ? JSON.parse(String(init.body)) : undefined });
    const entry = routes[route as Route];
    if (!entry)
      return new Response(JSON.stringify({ error: { code: 'not_found' } }), { status: 404 });
    const answer = await (typeof entry === 'function' ? entry() : entry);
    return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchStub);
  return calls;
}

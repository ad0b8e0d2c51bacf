import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startSandbox, type Running } from './support';

describe('API request counter (/_sandbox/accounts/{sub}/api-requests)', () => {
  let run: Running;
  let agent: string;
  const counts = async (subdomain = 'demo') =>
    (await call(`${run.url}/_sandbox/accounts/${subdomain}/api-requests`)).body;

  beforeAll(async () => {
    run = await startSandbox();
    agent = run.token(run.demo.agentIds[0]);
  });
  afterAll(() => run.close());

  it('counts each Support API request per account and endpoint, ids folded, control calls left out', async () => {
    await call(`${run.url}/_sandbox/accounts/demo/api-requests`, { method: 'DELETE' });
    const [first, second] = run.demo.ticketIds;
    await call(run.api('demo', `tickets/${first}.json`), { token: agent });
    await call(run.api('demo', `tickets/${second}`), { token: agent });
    await call(run.api('demo', `tickets/${first}.json`), {
      method: 'PUT',
      token: agent,
      body: { ticket: { additional_tags: ['counted'] } },
    });
    await call(run.api('demo', 'users/me.json'), { token: agent });
    await call(`${run.url}/_sandbox/accounts/demo/tickets/${first}`);
    expect(await counts()).toEqual({
      total: 4,
      by_endpoint: {
        'GET /api/v2/tickets/{id}': 2,
        'GET /api/v2/users/me': 1,
        'PUT /api/v2/tickets/{id}': 1,
      },
    });
    expect(await counts('nobody')).toEqual({ total: 0, by_endpoint: {} });
  });

  it('counts failed, faulted and unauthenticated requests too, and starts again on DELETE', async () => {
    await call(`${run.url}/_sandbox/accounts/demo/api-requests`, { method: 'DELETE' });
    await call(`${run.url}/_sandbox/faults`, {
      body: { path: '/api/v2/tickets/*', kind: 'error', status: 503, times: 1 },
    });
    expect((await call(run.api('demo', 'tickets/1.json'), { token: agent })).status).toBe(503);
    expect((await call(run.api('demo', 'tickets/1.json'))).status).toBe(401);
    expect((await counts()).total).toBe(2);
    expect(
      (await call(`${run.url}/_sandbox/accounts/demo/api-requests`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await counts()).total).toBe(0);
  });
});

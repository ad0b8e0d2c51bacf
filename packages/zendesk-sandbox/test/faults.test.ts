import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, startSandbox, type Running } from './support';

describe('faults and rate limits', () => {
  let run: Running;
  let agent: string;

  beforeAll(async () => {
    run = await startSandbox();
    agent = run.token(run.demo.agentIds[0]);
  });
  afterEach(async () => {
    await call(`${run.url}/_sandbox/faults`, { method: 'DELETE' });
  });
  afterAll(() => run.close());

  it('reports readiness', async () => {
    expect((await call(`${run.url}/_sandbox/ready`)).body).toMatchObject({ ready: true });
  });

  it('injects a 5xx on a matching route only, for the given number of requests', async () => {
    const fault = await call(`${run.url}/_sandbox/faults`, {
      body: { path: '/api/v2/tickets/*', method: 'GET', kind: 'error', status: 503, times: 1 },
    });
    expect(fault.status).toBe(201);
    expect((await call(run.api('demo', 'users/me.json'), { token: agent })).status).toBe(200);
    const failed = await call(run.api('demo', 'tickets/1.json'), { token: agent });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('1');
    expect((await call(run.api('demo', 'tickets/1.json'), { token: agent })).status).toBe(200);
  });

  it('injects a 401 invalid_token for one account only', async () => {
    run.sandbox.createAccount('spare');
    const spareUser = run.sandbox.createUser('spare', {
      name: 'S',
      email: 's@spare.example',
      role: 'agent',
    });
    const spareToken = run.token(spareUser.id, ['read'], 'spare');
    await call(`${run.url}/_sandbox/faults`, {
      body: { subdomain: 'demo', path: '/api/v2/*', kind: 'unauthorized' },
    });
    const failed = await call(run.api('demo', 'tickets/1.json'), { token: agent });
    expect(failed.status).toBe(401);
    expect(failed.body.error).toBe('invalid_token');
    expect((await call(run.api('spare', 'users/me.json'), { token: spareToken })).status).toBe(200);
  });

  it('injects a 403 Forbidden on one method of a route', async () => {
    await call(`${run.url}/_sandbox/faults`, {
      body: { subdomain: 'demo', path: '/api/v2/tickets/*', method: 'PUT', kind: 'forbidden' },
    });
    const refused = await call(run.api('demo', 'tickets/1.json'), {
      method: 'PUT',
      token: agent,
      body: { ticket: { additional_tags: ['x'] } },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('Forbidden');
    expect((await call(run.api('demo', 'tickets/1.json'), { token: agent })).status).toBe(200);
  });

  it('adds latency', async () => {
    await call(`${run.url}/_sandbox/faults`, {
      body: { path: '/api/v2/users/me.json', kind: 'latency', latency_ms: 150 },
    });
    const started = Date.now();
    expect((await call(run.api('demo', 'users/me.json'), { token: agent })).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('drops the connection', async () => {
    await call(`${run.url}/_sandbox/faults`, {
      body: { path: '/api/v2/tickets/2.json', kind: 'drop', times: 1 },
    });
    await expect(
      fetch(run.api('demo', 'tickets/2.json'), { headers: { Authorization: `Bearer ${agent}` } }),
    ).rejects.toThrow();
    expect((await call(run.api('demo', 'tickets/2.json'), { token: agent })).status).toBe(200);
  });

  it('affects the given share of matching requests with a rate, counting the hits', async () => {
    await call(`${run.url}/_sandbox/faults`, {
      body: { path: '/api/v2/users/me.json', kind: 'error', status: 500, rate: 0.25 },
    });
    let failed = 0;
    for (let i = 0; i < 400; i++)
      if ((await call(run.api('demo', 'users/me.json'), { token: agent })).status === 500)
        failed += 1;
    // 100 expected; the bounds are eight standard deviations (8.7) away
    expect(failed).toBeGreaterThan(30);
    expect(failed).toBeLessThan(170);
    expect((await call(`${run.url}/_sandbox/faults`)).body.faults[0].hits).toBe(failed);
    for (const rate of [0, 1.5, -0.1]) {
      expect(
        (
          await call(`${run.url}/_sandbox/faults`, {
            body: { path: '/api/v2/*', kind: 'drop', rate },
          })
        ).status,
      ).toBe(422);
    }
  });

  it('limits requests per minute per account with 429, Retry-After and X-Rate-Limit headers', async () => {
    run.sandbox.createAccount('limited');
    const user = run.sandbox.createUser('limited', {
      name: 'L',
      email: 'l@limited.example',
      role: 'agent',
    });
    const token = run.token(user.id, ['read'], 'limited');
    await call(`${run.url}/_sandbox/accounts/limited/rate-limit`, {
      method: 'PUT',
      body: { requests_per_minute: 3 },
    });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i += 1) {
      last = await call(run.api('limited', 'users/me.json'), { token });
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers.get('x-rate-limit')).toBe('3');
        expect(last.headers.get('x-rate-limit-remaining')).toBe('2');
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const retryAfter = Number(last?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another account is unaffected.
    expect((await call(run.api('demo', 'users/me.json'), { token: agent })).status).toBe(200);
  });

  it('lets the window elapse', async () => {
    // its own clock: the window moves on when the test says, however long the calls take
    let now = Date.UTC(2026, 10, 1);
    const clocked = await startSandbox({ clock: () => now });
    try {
      clocked.sandbox.createAccount('window');
      const user = clocked.sandbox.createUser('window', {
        name: 'W',
        email: 'w@window.example',
        role: 'agent',
      });
      const token = clocked.token(user.id, ['read'], 'window');
      await call(`${clocked.url}/_sandbox/accounts/window/rate-limit`, {
        method: 'PUT',
        body: { requests_per_minute: 1, window_ms: 100 },
      });
      const me = () => call(clocked.api('window', 'users/me.json'), { token });
      expect((await me()).status).toBe(200);
      now += 99;
      expect((await me()).status).toBe(429);
      now += 1;
      expect((await me()).status).toBe(200);
    } finally {
      await clocked.close();
    }
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIncidentSandbox, DEMO_API_KEY } from '../src';
import { startReceiver, startSandbox } from './helpers';

describe('control API', () => {
  it('is ready and describes itself', async () => {
    const h = await startSandbox();
    expect(await h.control('GET', '/ready')).toEqual({ status: 200, body: { ready: true } });
    expect((await h.control('GET', '')).body.demoApiKey).toBe(DEMO_API_KEY);
  });

  it('seeds deterministically', async () => {
    const a = await startSandbox();
    const b = await startSandbox();
    expect((await a.api('/v1/incidents')).body).toEqual((await b.api('/v1/incidents')).body);
    const empty = await startSandbox({ seed: false });
    expect((await empty.api('/v1/incidents')).status).toBe(401);
  });

  it('advances an incident like an analyst, emitting the events and recording attempts', async () => {
    const h = await startSandbox();
    const receiver = await startReceiver();
    await h.api('/v1/webhooks', {
      method: 'POST',
      json: {
        url: receiver.url,
        events: [
          'incident.status_changed',
          'incident.history_created',
          'incident.takedown_updated',
        ],
        description: 'all',
      },
    });
    const id = (await h.api('/v1/incidents?status=approval_required&clientId=cl_demo_parent')).body
      .data[0].id;
    await h.control('POST', `/incidents/${id}/advance`, { status: 'takedown_ready' });
    await h.control('POST', `/incidents/${id}/advance`, { status: 'takedown_in_progress' });
    await h.control('POST', `/incidents/${id}/advance`, {
      status: 'takedown_success',
      message: 'Host removed the page',
    });
    const detail = (await h.api(`/v1/incident/${id}`)).body.data;
    expect(detail.status).toBe('takedown_success');
    expect(detail.history[0].message).toBe('Host removed the page');
    expect(detail.takedownTimestamp).toBeDefined();
    expect(detail.burnStartedTimestamp).toBeDefined();
    const attempts = (await h.api(`/v1/incidents/resolutions?search=${id}`)).body.data[0]
      .takedownAttempts;
    expect(attempts.at(-1)).toMatchObject({
      outcome: 'success',
      resolvedAt: expect.any(String),
      startedAt: expect.any(String),
    });

    const bad = await h.control('POST', `/incidents/${id}/advance`, { status: 'pending_review' });
    expect(bad.status).toBe(409);
    expect(bad.body).toEqual({
      message:
        'Cannot move incident from takedown_success to pending_review; allowed next statuses: takedown_in_progress, closed',
      allowedNextStatuses: ['takedown_in_progress', 'closed'],
    });
    await h.sandbox.idle();
    const names = receiver.received.map((d) => d.body.event);
    expect(names.filter((n) => n === 'incident.status_changed')).toHaveLength(3);
    expect(names.filter((n) => n === 'incident.history_created')).toHaveLength(3);
    expect(names.filter((n) => n === 'incident.takedown_updated')).toHaveLength(2);
    const deliveries = await h.control('GET', '/deliveries?event=incident.takedown_updated');
    expect(deliveries.body.data).toHaveLength(2);
  });

  it('adds blocklist listings, snapshots and takedown attempts', async () => {
    const h = await startSandbox();
    const id = (await h.api('/v1/incidents?status=pending_review')).body.data[0].id;
    expect(
      (
        await h.control('POST', `/incidents/${id}/blocklists`, {
          authority: 'Partner',
          type: 'warning-banner',
          status: 'submitted',
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await h.control('POST', `/incidents/${id}/snapshots`, {
          timestamp: '2030-01-01T00:00:00.000Z',
          insights: { dns: { recordTypes: ['A'] } },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await h.control('POST', `/incidents/${id}/takedown-attempts`, {
          startedAt: null,
          resolvedAt: null,
          outcome: 'closed',
        })
      ).status,
    ).toBe(201);
    expect(
      (await h.control('POST', `/incidents/${id}/takedown-attempts`, { startedAt: 'yesterday' }))
        .status,
    ).toBe(400);
    const d = (await h.api(`/v1/incident/${id}`)).body.data;
    expect(d.blocklists.at(-1)).toEqual({
      authority: 'Partner',
      type: 'warning-banner',
      status: 'submitted',
      listedAt: null,
      link: null,
    });
    expect(d.insights).toEqual({
      snapshotTimestamp: '2030-01-01T00:00:00.000Z',
      dns: { recordTypes: ['A'] },
    });
    expect((await h.api(`/v1/incident/${id}/snapshots`)).body.data.snapshots[0].timestamp).toBe(
      '2030-01-01T00:00:00.000Z',
    );
  });

  it('injects latency, 429 with Retry-After and dropped connections per route, then clears them', async () => {
    const h = await startSandbox();
    await h.control('POST', '/faults', {
      path: '/v1/usage',
      kind: 'latency',
      latencyMs: 150,
      times: 1,
    });
    const started = Date.now();
    expect((await h.api('/v1/usage')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);

    await h.control('POST', '/faults', {
      method: 'GET',
      path: '/v1/incidents',
      kind: 'rate_limit',
      retryAfterSeconds: 7,
    });
    const limited = await h.api('/v1/incidents');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect((await h.api('/v1/usage')).status).toBe(200);

    const drop = await h.control('POST', '/faults', { path: '/v1/clients', kind: 'drop' });
    await expect(h.api('/v1/clients')).rejects.toThrow();
    expect((await h.control('GET', '/faults')).body.data).toHaveLength(2);
    await h.control('DELETE', `/faults/${drop.body.id}`);
    expect((await h.api('/v1/clients')).status).toBe(200);
    await h.control('DELETE', '/faults');
    expect((await h.api('/v1/incidents')).status).toBe(200);
    expect((await h.control('POST', '/faults', { path: 'usage', kind: 'boom' })).status).toBe(400);
  });

  it('affects the given share of matching requests with a rate, counting the hits', async () => {
    const h = await startSandbox();
    await h.control('POST', '/faults', {
      path: '/v1/usage',
      kind: 'status',
      status: 503,
      rate: 0.25,
    });
    let failed = 0;
    for (let i = 0; i < 400; i++) if ((await h.api('/v1/usage')).status === 503) failed += 1;
    // 100 expected; the bounds are eight standard deviations (8.7) away
    expect(failed).toBeGreaterThan(30);
    expect(failed).toBeLessThan(170);
    expect((await h.control('GET', '/faults')).body.data[0].hits).toBe(failed);
    for (const rate of [0, 1.5, -0.1]) {
      expect(
        (await h.control('POST', '/faults', { path: '/v1/usage', kind: 'drop', rate })).status,
      ).toBe(400);
    }
  });

  it('keeps state across a restart in file-backed mode', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'incident-sandbox-'));
    const dataFile = path.join(dir, 'state.json');
    try {
      const first = createIncidentSandbox({ dataFile });
      const a = await first.listen(0);
      const report = await fetch(`${a.url}/v1/incident/tkd`, {
        method: 'POST',
        headers: { 'x-api-key': DEMO_API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://survives-restart.example' }),
      });
      const { id } = (await report.json()) as { id: string };
      await first.close();

      const second = createIncidentSandbox({ dataFile });
      const b = await second.listen(0);
      const detail = await fetch(`${b.url}/v1/incident/${id}`, {
        headers: { 'x-api-key': DEMO_API_KEY },
      });
      expect(detail.status).toBe(200);
      await second.close();

      const inMemory = createIncidentSandbox();
      const c = await inMemory.listen(0);
      expect(
        (await fetch(`${c.url}/v1/incident/${id}`, { headers: { 'x-api-key': DEMO_API_KEY } }))
          .status,
      ).toBe(404);
      await inMemory.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes its notion of now from the clock option', async () => {
    let now = new Date('2031-05-01T12:00:00.000Z');
    const h = await startSandbox({ clock: () => now });
    const r = await h.api('/v1/incident/tkd', {
      method: 'POST',
      json: { url: 'https://clocked.example' },
    });
    expect((await h.api(`/v1/incident/${r.body.id}`)).body.data.timestamp).toBe(
      '2031-05-01T12:00:00.000Z',
    );
    await h.control('PATCH', '/clients/cl_demo_parent', {
      creditsExpireAt: '2031-06-01T00:00:00.000Z',
    });
    expect((await h.api('/v1/usage')).body.data.remainingCredits).toBe(25);
    now = new Date('2031-06-02T00:00:00.000Z');
    expect((await h.api('/v1/usage')).body.data.remainingCredits).toBe(0);
  });

  it('resets to the seed', async () => {
    const h = await startSandbox();
    await h.api('/v1/incident/tkd', { method: 'POST', json: { url: 'https://reset-me.example' } });
    const before = (await h.api('/v1/incidents?includeTotal=true')).body.paging.total;
    await h.control('POST', '/reset', {});
    expect((await h.api('/v1/incidents?includeTotal=true')).body.paging.total).toBe(before - 1);
  });
});

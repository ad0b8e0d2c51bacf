import { describe, expect, it } from 'vitest';
import { DEMO_PARENT_CLIENT_ID } from '../src';
import { startSandbox, type Harness } from './helpers';

type Attempt = { startedAt: string | null; resolvedAt?: string | null; outcome?: string | null };
const t = (day: number) => `2026-10-${String(day).padStart(2, '0')}T10:00:00.000Z`;

/** A sub-client of the demo parent holding one incident per attempt history, so filters are exact. */
async function rulesClient(h: Harness, histories: Record<string, Attempt[]>) {
  const client = await h.control('POST', '/clients', {
    id: 'cl_rules',
    name: 'Rules',
    parentClientId: DEMO_PARENT_CLIENT_ID,
  });
  expect(client.status).toBe(201);
  const ids: Record<string, string> = {};
  let day = 1;
  for (const [name, attempts] of Object.entries(histories)) {
    const created = await h.control('POST', '/incidents', {
      clientId: 'cl_rules',
      url: `${name}.rules.example`,
      timestamp: t(day++),
      emitEvents: false,
    });
    ids[name] = created.body.id;
    for (const attempt of attempts)
      expect(
        (await h.control('POST', `/incidents/${created.body.id}/takedown-attempts`, attempt))
          .status,
      ).toBe(201);
  }
  const names = (body: { data: { id: string }[] }) =>
    body.data.map((d) => Object.keys(ids).find((n) => ids[n] === d.id)).sort();
  return { ids, names };
}

const HISTORIES: Record<string, Attempt[]> = {
  successThenRestart: [
    { startedAt: t(2), resolvedAt: t(3), outcome: 'success' },
    { startedAt: t(5) },
  ],
  failedThenRestart: [
    { startedAt: t(2), resolvedAt: t(3), outcome: 'failed' },
    { startedAt: t(6), resolvedAt: t(7), outcome: 'success' },
  ],
  unresolvedThenRestart: [
    { startedAt: t(2), resolvedAt: null, outcome: 'closed' },
    { startedAt: t(6) },
  ],
  successThenUnknownStart: [
    { startedAt: t(2), resolvedAt: t(3), outcome: 'success' },
    { startedAt: null, resolvedAt: t(8), outcome: 'failed' },
  ],
  beforeRecordingThenOne: [
    { startedAt: null, resolvedAt: t(3), outcome: 'failed' },
    { startedAt: t(9) },
  ],
  restartedTwice: [{ startedAt: t(2) }, { startedAt: t(4) }, { startedAt: t(6) }],
  none: [],
};

describe('GET /v1/incidents/resolutions', () => {
  it('rule 1: reinitiatedAfter needs a known resolvedAt followed by a known startedAt; success needs outcome success', async () => {
    const h = await startSandbox();
    const { names } = await rulesClient(h, HISTORIES);
    const success = await h.api(
      '/v1/incidents/resolutions?clientId=cl_rules&reinitiatedAfter=success',
    );
    expect(success.status).toBe(200);
    expect(names(success.body)).toEqual(['successThenRestart']);
    const resolved = await h.api(
      '/v1/incidents/resolutions?clientId=cl_rules&reinitiatedAfter=resolved',
    );
    expect(names(resolved.body)).toEqual([
      'beforeRecordingThenOne',
      'failedThenRestart',
      'successThenRestart',
    ]);
  });

  it('rule 2: minTakedownAttempts counts attempts with a known startedAt', async () => {
    const h = await startSandbox();
    const { names } = await rulesClient(h, HISTORIES);
    const two = await h.api('/v1/incidents/resolutions?clientId=cl_rules&minTakedownAttempts=2');
    expect(names(two.body)).toEqual([
      'failedThenRestart',
      'restartedTwice',
      'successThenRestart',
      'unresolvedThenRestart',
    ]);
    const three = await h.api('/v1/incidents/resolutions?clientId=cl_rules&minTakedownAttempts=3');
    expect(names(three.body)).toEqual(['restartedTwice']);
  });

  it('rule 3: only recorded attempts count (an incident taken down before recording has none)', async () => {
    const h = await startSandbox();
    const closedOld = await h.api('/v1/incidents?status=closed&incidentType=domain');
    const old = closedOld.body.data.find(
      (i: { takedownTimestamp?: string }) => i.takedownTimestamp,
    );
    const all = await h.api('/v1/incidents/resolutions?limit=100');
    expect(all.body.data.find((d: { id: string }) => d.id === old.id).takedownAttempts).toEqual([]);
    const min1 = await h.api('/v1/incidents/resolutions?limit=100&minTakedownAttempts=1');
    expect(min1.body.data.map((d: { id: string }) => d.id)).not.toContain(old.id);
  });

  it('rule 4: filtering precedes pagination; each incident carries all its attempts', async () => {
    const h = await startSandbox();
    const { names } = await rulesClient(h, HISTORIES);
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await h.api(
        `/v1/incidents/resolutions?clientId=cl_rules&minTakedownAttempts=2&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.paging.count).toBe(1);
      expect(page.body.paging.limit).toBe(1);
      pages.push(names(page.body) as string[]);
      if (names(page.body)[0] === 'restartedTwice')
        expect(page.body.data[0].takedownAttempts).toHaveLength(3);
      cursor = page.body.paging.next ?? undefined;
    } while (cursor);
    expect(pages.flat().sort()).toEqual([
      'failedThenRestart',
      'restartedTwice',
      'successThenRestart',
      'unresolvedThenRestart',
    ]);
  });

  it('rule 5: the attempt filters with search or statusVerbose answer 400', async () => {
    const h = await startSandbox();
    for (const q of [
      'reinitiatedAfter=success&search=x',
      'minTakedownAttempts=2&search=x',
      'reinitiatedAfter=resolved&statusVerbose=closed',
      'minTakedownAttempts=1&statusVerbose=closed',
    ]) {
      const r = await h.api(`/v1/incidents/resolutions?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.message, q).toMatch(/reinitiatedAfter|minTakedownAttempts/);
    }
  });

  it('rule 6: includeTotal with the filters counts every matching candidate', async () => {
    const h = await startSandbox();
    await rulesClient(h, HISTORIES);
    const r = await h.api(
      '/v1/incidents/resolutions?clientId=cl_rules&reinitiatedAfter=resolved&includeTotal=true&limit=1',
    );
    expect(r.body.paging.total).toBe(3);
    expect(r.body.paging.count).toBe(1);
    expect(r.body.paging.next).toBeDefined();
  });

  it('shows every reading rule of attempts as recorded', async () => {
    const h = await startSandbox();
    const { ids } = await rulesClient(h, HISTORIES);
    const r = await h.api(`/v1/incidents/resolutions?search=${ids.restartedTwice}`);
    expect(r.body.data[0].takedownAttempts).toEqual([
      { startedAt: t(2), resolvedAt: null, outcome: null },
      { startedAt: t(4), resolvedAt: null, outcome: null },
      { startedAt: t(6), resolvedAt: null, outcome: null },
    ]);
    const before = await h.api(`/v1/incidents/resolutions?search=${ids.beforeRecordingThenOne}`);
    expect(before.body.data[0].takedownAttempts[0]).toEqual({
      startedAt: null,
      resolvedAt: t(3),
      outcome: 'failed',
    });
    const unknownEnd = await h.api(`/v1/incidents/resolutions?search=${ids.unresolvedThenRestart}`);
    expect(unknownEnd.body.data[0].takedownAttempts[0]).toEqual({
      startedAt: t(2),
      resolvedAt: null,
      outcome: 'closed',
    });
  });

  it('search matches the id or the value under attack and pages without cursor', async () => {
    const h = await startSandbox();
    const r = await h.api('/v1/incidents/resolutions?search=demo-retail-sale');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0].subject).toBe('demo-retail-sale.example');
    expect(r.body.paging).toEqual({ limit: 25, count: 1 });
    const alias = await h.api('/v1/incident/resolutions?search=demo-retail-sale');
    expect(alias.body).toEqual(r.body);
  });

  it('ends paging with no next and defaults limit to 25', async () => {
    const h = await startSandbox();
    const r = await h.api('/v1/incidents/resolutions');
    expect(r.body.paging.limit).toBe(25);
    expect(r.body.paging.next ?? null).toBeNull();
    expect(r.body.paging.count).toBe(r.body.data.length);
  });

  it('answers 400 naming the parameter for each invalid value', async () => {
    const h = await startSandbox();
    const cases: [string, string][] = [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['fromDate=31/12/2026', 'fromDate'],
      ['status=gone', 'status'],
      ['search=x&status=closed', 'status'],
      ['reinitiatedAfter=failed', 'reinitiatedAfter'],
      ['minTakedownAttempts=1.5', 'minTakedownAttempts'],
      ['minTakedownAttempts=0', 'minTakedownAttempts'],
      ['minTakedownAttempts=100001', 'minTakedownAttempts'],
      ['cursor=not-an-incident', 'cursor'],
    ];
    for (const [q, field] of cases) {
      const r = await h.api(`/v1/incidents/resolutions?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.message, q).toContain(field);
    }
  });

  it('answers 401, 403, 404, 502 and 503 per the Errors table', async () => {
    const h = await startSandbox();
    expect((await h.api('/v1/incidents/resolutions', { key: 'bad' })).status).toBe(401);
    expect((await h.api('/v1/incidents/resolutions?clientId=cl_other_org')).status).toBe(401);

    const noScope = await h.control('POST', '/keys', {
      clientId: DEMO_PARENT_CLIENT_ID,
      scopes: [],
    });
    expect((await h.api('/v1/incidents/resolutions', { key: noScope.body.key })).status).toBe(403);
    await h.control('PATCH', `/clients/${DEMO_PARENT_CLIENT_ID}`, { resolutionsEnabled: false });
    const disabled = await h.api('/v1/incidents/resolutions');
    expect(disabled.status).toBe(403);
    expect(disabled.body.message).toMatch(/not enabled/);
    await h.control('PATCH', `/clients/${DEMO_PARENT_CLIENT_ID}`, { resolutionsEnabled: true });

    const first = await h.api('/v1/incidents/resolutions?limit=2');
    await h.control('PATCH', `/incidents/${first.body.data[1].id}`, { unreadable: true });
    const failing = await h.api('/v1/incidents/resolutions?limit=2');
    expect(failing.status).toBe(404);
    expect(
      (await h.api(`/v1/incidents/resolutions?limit=1&cursor=${first.body.data[1].id}`)).status,
    ).toBe(200);

    for (const status of [502, 503]) {
      await h.control('POST', '/faults', {
        path: '/v1/incidents/resolutions',
        kind: 'status',
        status,
        times: 1,
      });
      const r = await h.api('/v1/incidents/resolutions?limit=1&cursor=' + first.body.data[1].id);
      expect(r.status).toBe(status);
      expect(r.body.message).toMatch(/retry/i);
    }
  });
});

describe('takedown attempts recorded out of time order', () => {
  it('are listed oldest first, and reinitiatedAfter follows time, not recording order', async () => {
    const h = await startSandbox();
    // recorded newest first: a restart on day 6 after a success that ended on day 3
    const { ids, names } = await rulesClient(h, {
      outOfOrder: [{ startedAt: t(6) }, { startedAt: t(2), resolvedAt: t(3), outcome: 'success' }],
    });
    const detail = await h.api(
      `/v1/incidents/resolutions?clientId=cl_rules&search=${ids.outOfOrder}`,
    );
    expect(detail.body.data[0].takedownAttempts).toEqual([
      { startedAt: t(2), resolvedAt: t(3), outcome: 'success' },
      { startedAt: t(6), resolvedAt: null, outcome: null },
    ]);
    const success = await h.api(
      '/v1/incidents/resolutions?clientId=cl_rules&reinitiatedAfter=success',
    );
    expect(names(success.body)).toEqual(['outOfOrder']);
  });
});

describe('attempt visibility lag', () => {
  it('shows a new attempt on the single incident at once and on resolutions only after the lag', async () => {
    let now = Date.parse('2026-11-01T10:00:00.000Z');
    const h = await startSandbox({ clock: () => new Date(now) });
    const created = await h.control('POST', '/incidents', {
      clientId: DEMO_PARENT_CLIENT_ID,
      url: 'lag.rules.example',
      emitEvents: false,
    });
    const id = created.body.id as string;
    const attempts = async () =>
      (await h.api(`/v1/incidents/resolutions?search=${id}`)).body.data[0].takedownAttempts;

    await h.control('POST', `/incidents/${id}/advance`, {
      status: 'takedown_in_progress',
      force: true,
    });
    expect(await attempts()).toHaveLength(1); // default: no lag
    now += 600_000; // the first attempt is long recorded when the lag is set

    expect(
      (await h.control('PATCH', '/settings', { attemptVisibilityLagMs: 180_000 })).status,
    ).toBe(200);
    await h.control('POST', `/incidents/${id}/advance`, { status: 'takedown_attempt_failed' });
    await h.control('POST', `/incidents/${id}/advance`, { status: 'takedown_in_progress' });
    expect((await h.api(`/v1/incident/${id}`)).body.data.status).toBe('takedown_in_progress');
    expect(await attempts()).toHaveLength(1);
    const filtered = await h.api(`/v1/incidents/resolutions?minTakedownAttempts=2`);
    expect(filtered.body.data.map((d: { id: string }) => d.id)).not.toContain(id);

    now += 180_000;
    const shown = await attempts();
    expect(shown).toHaveLength(2);
    expect(Object.keys(shown[1])).toEqual(['startedAt', 'resolvedAt', 'outcome']);
    const later = await h.api(`/v1/incidents/resolutions?minTakedownAttempts=2`);
    expect(later.body.data.map((d: { id: string }) => d.id)).toContain(id);
  });
});

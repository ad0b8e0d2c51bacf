import { describe, expect, it } from 'vitest';
import { DEMO_RETAIL_CLIENT_ID, OTHER_ORG_API_KEY } from '../src';
import { startSandbox } from './helpers';

describe('GET /v1/incidents', () => {
  it('requires a valid x-api-key', async () => {
    const { api } = await startSandbox();
    expect((await api('/v1/incidents', { key: null })).status).toBe(401);
    expect((await api('/v1/incidents', { key: 'nope' })).status).toBe(401);
  });

  it('walks cursor pages to the end with includeTotal honouring the filters', async () => {
    const { api } = await startSandbox();
    const all = await api('/v1/incidents?includeTotal=true');
    expect(all.status).toBe(200);
    expect(all.body.message).toBe('success');
    const total = all.body.paging.total as number;
    expect(total).toBe(all.body.data.length);
    expect(all.body.paging.next).toBeNull();

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await api(
        `/v1/incidents?limit=4&includeTotal=true${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.paging.limit).toBe(4);
      expect(page.body.paging.count).toBe(page.body.data.length);
      expect(page.body.paging.total).toBe(total);
      seen.push(...page.body.data.map((i: { id: string }) => i.id));
      cursor = page.body.paging.next ?? undefined;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(Math.ceil(total / 4));
    expect(new Set(seen).size).toBe(total);

    const filtered = await api(
      '/v1/incidents?status=takedown_in_progress&includeTotal=true&limit=1',
    );
    expect(filtered.body.paging.total).toBe(3);
    expect(filtered.body.data).toHaveLength(1);
    expect(filtered.body.data[0].status).toBe('takedown_in_progress');
    expect(filtered.body.paging.next).toBe(filtered.body.data[0].id);
  });

  it('filters by clientId, type and creation date', async () => {
    const { api } = await startSandbox();
    const retail = await api(`/v1/incidents?clientId=${DEMO_RETAIL_CLIENT_ID}`);
    expect(retail.body.data.length).toBeGreaterThan(0);
    expect(
      retail.body.data.every((i: { clientId: string }) => i.clientId === DEMO_RETAIL_CLIENT_ID),
    ).toBe(true);
    const phones = await api('/v1/incidents?incidentType=phone');
    expect(phones.body.data.map((i: { incidentType: string }) => i.incidentType)).toEqual([
      'phone',
    ]);
    const recent = await api(
      '/v1/incidents?fromDate=2026-09-12T00:00:00.000Z&toDate=2026-09-13T12:00:00.000Z',
    );
    for (const i of recent.body.data) {
      expect(
        i.timestamp >= '2026-09-12T00:00:00.000Z' && i.timestamp <= '2026-09-13T12:00:00.000Z',
      ).toBe(true);
    }
    expect(recent.body.data.length).toBeGreaterThan(0);
  });

  it('seeds every status, and web incidents carry url or domain', async () => {
    const { api } = await startSandbox();
    const { body } = await api('/v1/incidents');
    const statuses = new Set(body.data.map((i: { status: string }) => i.status));
    expect(statuses.size).toBe(11);
    for (const i of body.data)
      expect(
        i.url !== undefined ||
          i.domain !== undefined ||
          ['email', 'phone', 'ipv4'].includes(i.incidentType),
      ).toBe(true);
  });

  it('answers 400 naming the field for invalid parameters', async () => {
    const { api } = await startSandbox();
    const cases: [string, string][] = [
      ['includeTotal=true&statusVerbose=closed', 'includeTotal'],
      ['status=bogus', 'status'],
      ['fromDate=yesterday', 'fromDate'],
      ['limit=0', 'limit'],
      ['reinitiatedAfter=success', 'reinitiatedAfter'],
      ['minTakedownAttempts=2', 'minTakedownAttempts'],
      ['cursor=unknown-cursor', 'cursor'],
    ];
    for (const [query, field] of cases) {
      const r = await api(`/v1/incidents?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.message, query).toContain(field);
    }
    const deprecated = await api('/v1/incidents?statusVerbose=closed');
    expect(deprecated.status).toBe(200);
    expect(deprecated.body.data.every((i: { status: string }) => i.status === 'closed')).toBe(true);
  });

  it('gives 401 for a clientId outside the key', async () => {
    const { api } = await startSandbox();
    const r = await api('/v1/incidents?clientId=cl_other_org');
    expect(r.status).toBe(401);
  });
});

describe('GET /v1/incident/{id} and friends', () => {
  it('returns the detail by list id and by the inc_ reference of a report', async () => {
    const { api } = await startSandbox();
    const report = await api('/v1/incident/tkd', {
      method: 'POST',
      json: { url: 'https://brand-new-phish.example/login' },
    });
    expect(report.status).toBe(200);
    expect(report.body.id).toMatch(/^inc_/);
    const byRef = await api(`/v1/incident/${report.body.id}`);
    expect(byRef.status).toBe(200);
    const detail = byRef.body.data;
    expect(detail.clientId).toBe('cl_demo_parent');
    expect(detail.history[0].message).toContain('reported');
    expect(detail.blocklists).toEqual([]);
    expect(detail.incidentState).toMatchObject({ inconclusive: true });
    const byId = await api(`/v1/incident/${detail.id}`);
    expect(byId.body.data.id).toBe(detail.id);
    const snaps = await api(`/v1/incident/${report.body.id}/snapshots`);
    expect(snaps.body.data.incidentId).toBe(detail.id);
    expect(snaps.body.data.snapshots).toHaveLength(1);
  });

  it('returns history newest first, registrar, blocklists and insights on a rich incident', async () => {
    const { api } = await startSandbox();
    const list = await api('/v1/incidents?status=takedown_success');
    const rich = list.body.data.find((i: { url?: string }) =>
      i.url?.includes('demo-parent-verify'),
    );
    const { body } = await api(`/v1/incident/${rich.id}`);
    const d = body.data;
    expect(d.history.length).toBeGreaterThan(1);
    expect(d.history[0].timestamp >= d.history[1].timestamp).toBe(true);
    expect(d.registrar.name).toBeDefined();
    expect(d.hostingProvider).toBe('Example Hosting');
    expect(d.blocklists[0]).toMatchObject({ status: 'listed' });
    expect(d.insights.snapshotTimestamp).toBeDefined();
    expect(d.insights.whois.isExpired).toBeNull();
    expect(d.insights.page).toBeDefined();
    expect(d.threatTaxonomy.incidentThreatType.name).toBe('Credential theft');
    const snaps = await api(`/v1/incident/${rich.id}/snapshots`);
    const [newest, oldest] = snaps.body.data.snapshots;
    expect(newest.timestamp > oldest.timestamp).toBe(true);
    expect(newest.insights).toBeUndefined();
  });

  it('returns no snapshots for email, phone and ipv4 incidents', async () => {
    const { api } = await startSandbox();
    for (const type of ['email', 'phone', 'ipv4']) {
      const list = await api(`/v1/incidents?incidentType=${type}`);
      const snaps = await api(`/v1/incident/${list.body.data[0].id}/snapshots`);
      expect(snaps.body.data.snapshots, type).toEqual([]);
      const detail = await api(`/v1/incident/${list.body.data[0].id}`);
      expect(detail.body.data.insights, type).toBeUndefined();
    }
  });

  it('resolves email, phone and ipv4 subjects; 404 when none', async () => {
    const { api } = await startSandbox();
    for (const subject of [
      'support@demo-parent-billing.example',
      '+442071838750',
      '198.51.100.23',
    ]) {
      const r = await api(`/v1/incident/subject/${encodeURIComponent(subject)}`);
      expect(r.status, subject).toBe(200);
      expect(r.body.data.subject).toBe(subject);
      expect(r.body.data.history).toBeDefined();
    }
    const byUrl = await api(
      `/v1/incident/subject/${encodeURIComponent('https://demo-parent-login.example/signin')}`,
    );
    expect(byUrl.body.data.incidentType).toBe('domain');
    expect((await api('/v1/incident/subject/nobody%40nowhere.example')).status).toBe(404);
  });

  it('answers 404 for unknown incidents and incidents of another account', async () => {
    const { api } = await startSandbox();
    expect((await api('/v1/incident/does-not-exist')).status).toBe(404);
    expect((await api('/v1/incident/inc_missing/snapshots')).status).toBe(404);
    const mine = await api('/v1/incidents?limit=1');
    const id = mine.body.data[0].id;
    const other = await api(`/v1/incident/${id}`, { key: OTHER_ORG_API_KEY });
    expect(other.status).toBe(404);
    expect((await api(`/v1/incident/${id}/snapshots`, { key: OTHER_ORG_API_KEY })).status).toBe(
      404,
    );
    expect((await api('/v1/incidents', { key: OTHER_ORG_API_KEY })).body.data).toEqual([]);
  });

  it('gives 401 for a clientId outside the key on detail reads', async () => {
    const { api } = await startSandbox();
    const mine = await api('/v1/incidents?limit=1');
    expect((await api(`/v1/incident/${mine.body.data[0].id}?clientId=cl_other_org`)).status).toBe(
      401,
    );
  });
});

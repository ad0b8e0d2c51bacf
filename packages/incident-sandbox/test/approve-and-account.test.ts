import { describe, expect, it } from 'vitest';
import {
  DEMO_BANK_CLIENT_ID,
  DEMO_PARENT_CLIENT_ID,
  DEMO_RETAIL_CLIENT_ID,
  OTHER_ORG_API_KEY,
} from '../src';
import { startSandbox, type Harness } from './helpers';

async function awaitingApproval(h: Harness, clientId = DEMO_PARENT_CLIENT_ID): Promise<string> {
  const list = await h.api(`/v1/incidents?status=approval_required&clientId=${clientId}`);
  return list.body.data[0].id as string;
}

describe('POST /v1/incident/{id}/approve-takedown', () => {
  it('moves approval_required to takedown_ready, records the author and consumes a credit', async () => {
    const h = await startSandbox();
    const id = await awaitingApproval(h);
    const before = (await h.api('/v1/usage')).body.data.remainingCredits as number;
    const r = await h.api(`/v1/incident/${id}/approve-takedown`, {
      method: 'POST',
      json: { author: 'Jane Approver' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: expect.any(String), id });
    const detail = (await h.api(`/v1/incident/${id}`)).body.data;
    expect(detail.status).toBe('takedown_ready');
    expect(detail.history[0].message).toContain('Jane Approver');
    expect((await h.api('/v1/usage')).body.data.remainingCredits).toBe(before - 1);
    const again = await h.api(`/v1/incident/${id}/approve-takedown`, {
      method: 'POST',
      json: { author: 'Jane Approver' },
    });
    expect(again.status).toBe(409);
  });

  it('does not consume credits on an unlimited plan', async () => {
    const h = await startSandbox();
    const id = await awaitingApproval(h, DEMO_RETAIL_CLIENT_ID);
    expect(
      (
        await h.api(`/v1/incident/${id}/approve-takedown`, {
          method: 'POST',
          json: { author: 'a' },
        })
      ).status,
    ).toBe(200);
    expect(
      (await h.api(`/v1/usage?clientId=${DEMO_RETAIL_CLIENT_ID}`)).body.data.remainingCredits,
    ).toBe('unlimited');
  });

  it('answers 403 without credits and when credits expired', async () => {
    const h = await startSandbox();
    const id = await awaitingApproval(h);
    await h.control('PATCH', `/clients/${DEMO_PARENT_CLIENT_ID}`, { credits: 0 });
    const none = await h.api(`/v1/incident/${id}/approve-takedown`, {
      method: 'POST',
      json: { author: 'a' },
    });
    expect(none.status).toBe(403);
    await h.control('PATCH', `/clients/${DEMO_PARENT_CLIENT_ID}`, {
      credits: 5,
      creditsExpireAt: '2020-01-01T00:00:00.000Z',
    });
    expect(
      (
        await h.api(`/v1/incident/${id}/approve-takedown`, {
          method: 'POST',
          json: { author: 'a' },
        })
      ).status,
    ).toBe(403);
    expect((await h.api(`/v1/incident/${id}`)).body.data.status).toBe('approval_required');
  });

  it('answers 400 for a bad author, 409 when not awaiting approval, 404 when absent, 503 when injected', async () => {
    const h = await startSandbox();
    const id = await awaitingApproval(h);
    for (const body of [
      {},
      { author: '' },
      { author: '   ' },
      { author: 42 },
      { author: 'x'.repeat(257) },
    ]) {
      const r = await h.api(`/v1/incident/${id}/approve-takedown`, { method: 'POST', json: body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toContain('author');
    }
    expect(
      (
        await h.api(`/v1/incident/${id}/approve-takedown`, {
          method: 'POST',
          json: { author: 'x'.repeat(256) },
        })
      ).status,
    ).toBe(200);
    const pending = (await h.api('/v1/incidents?status=pending_review')).body.data[0].id;
    expect(
      (
        await h.api(`/v1/incident/${pending}/approve-takedown`, {
          method: 'POST',
          json: { author: 'a' },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await h.api('/v1/incident/missing/approve-takedown', {
          method: 'POST',
          json: { author: 'a' },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await h.api(`/v1/incident/${id}/approve-takedown`, {
          method: 'POST',
          json: { author: 'a' },
          key: OTHER_ORG_API_KEY,
        })
      ).status,
    ).toBe(404);
    await h.control('POST', '/faults', {
      method: 'POST',
      path: '/v1/incident/:id/approve-takedown',
      kind: 'status',
      status: 503,
      times: 1,
    });
    expect(
      (
        await h.api(`/v1/incident/${id}/approve-takedown`, {
          method: 'POST',
          json: { author: 'a' },
        })
      ).status,
    ).toBe(503);
  });
});

describe('GET /v1/usage', () => {
  it('reads credits as a number, unlimited or null', async () => {
    const h = await startSandbox();
    expect((await h.api('/v1/usage')).body.data).toEqual({
      clientId: DEMO_PARENT_CLIENT_ID,
      clientName: 'Demo Parent Co',
      remainingCredits: 25,
    });
    expect(
      (await h.api(`/v1/usage?clientId=${DEMO_RETAIL_CLIENT_ID}`)).body.data.remainingCredits,
    ).toBe('unlimited');
    expect(
      (await h.api(`/v1/usage?clientId=${DEMO_BANK_CLIENT_ID}`)).body.data.remainingCredits,
    ).toBeNull();
  });

  it('answers 401 with the spec message for a clientId outside the key, and an injectable 503', async () => {
    const h = await startSandbox();
    const r = await h.api('/v1/usage?clientId=cl_other_org');
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('Unauthorized. Please ensure client ID is valid.');
    expect((await h.api('/v1/usage', { key: null })).status).toBe(401);
    await h.control('POST', '/faults', { path: '/v1/usage', kind: 'status', status: 503 });
    expect((await h.api('/v1/usage')).status).toBe(503);
    await h.control('DELETE', '/faults');
    expect((await h.api('/v1/usage')).status).toBe(200);
  });
});

describe('GET /v1/users', () => {
  it('pages by offset, never returns staff, filters by role and search', async () => {
    const h = await startSandbox();
    const all = await h.api('/v1/users');
    expect(all.body.paging).toEqual({ limit: 200, offset: 0, count: 5, total: 5 });
    const emails = all.body.data.map((u: { email: string }) => u.email);
    expect(
      emails.some((e: string) => e.includes('incident-service.example') || e.startsWith('ops@')),
    ).toBe(false);
    expect(emails).not.toContain('pat@other-org.example');

    const collected: string[] = [];
    for (let offset = 0; ;) {
      const page = await h.api(`/v1/users?limit=2&offset=${offset}`);
      collected.push(...page.body.data.map((u: { id: string }) => u.id));
      offset += page.body.paging.count;
      if (offset >= page.body.paging.total) break;
    }
    expect(collected).toEqual(all.body.data.map((u: { id: string }) => u.id));
    expect((await h.api('/v1/users?offset=10')).body).toMatchObject({
      data: [],
      paging: { count: 0, total: 5 },
    });

    expect((await h.api('/v1/users?role=admin')).body.data).toEqual([]);
    expect(
      (await h.api('/v1/users?role=superuser')).body.data.every((u: { roles: string[] }) =>
        u.roles.includes('superuser'),
      ),
    ).toBe(true);
    const search = await h.api('/v1/users?search=RILEY');
    expect(search.body.data.map((u: { id: string }) => u.id)).toEqual(['usr_retail_super']);
    const sub = await h.api(`/v1/users?clientId=${DEMO_RETAIL_CLIENT_ID}`);
    expect(
      sub.body.data.every((u: { clientId: string }) => u.clientId === DEMO_RETAIL_CLIENT_ID),
    ).toBe(true);
    const unnamed = sub.body.data.find((u: { id: string }) => u.id === 'usr_retail_user');
    expect(unnamed.name).toBeNull();
  });

  it('answers 400 for bad paging and for a key over 10 clients without clientId; 401 outside the key', async () => {
    const h = await startSandbox();
    for (const q of ['limit=0', 'limit=201', 'offset=-1', 'role=root']) {
      const r = await h.api(`/v1/users?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.message).toContain(q.split('=')[0]);
    }
    expect((await h.api('/v1/users?clientId=cl_other_org')).status).toBe(401);

    const ids: string[] = [];
    for (let i = 0; i < 11; i++)
      ids.push((await h.control('POST', '/clients', { name: `Reseller sub ${i}` })).body.id);
    const reseller = await h.control('POST', '/keys', { clientId: ids[0], clientIds: ids });
    const r = await h.api('/v1/users', { key: reseller.body.key });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('clientId');
    expect((await h.api(`/v1/users?clientId=${ids[3]}`, { key: reseller.body.key })).status).toBe(
      200,
    );
  });
});

describe('GET /v1/clients and /v1/documents', () => {
  it('lists the clients on the key', async () => {
    const h = await startSandbox();
    const r = await h.api('/v1/clients');
    expect(r.body.data.map((c: { id: string }) => c.id).sort()).toEqual(
      [DEMO_BANK_CLIENT_ID, DEMO_PARENT_CLIENT_ID, DEMO_RETAIL_CLIENT_ID].sort(),
    );
    expect(r.body.data[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      active: true,
    });
    expect((await h.api('/v1/clients?clientId=cl_other_org')).status).toBe(401);
  });

  it('lists documents without signed URLs and signs one on detail that downloads', async () => {
    const h = await startSandbox();
    const list = await h.api('/v1/documents');
    expect(list.body.data.map((d: { id: string }) => d.id)).not.toContain('doc_other_loa');
    expect(list.body.data[0].signedUrl).toBeUndefined();
    const nullish = list.body.data.find((d: { id: string }) => d.id === 'doc_parent_exec');
    expect(nullish).toMatchObject({
      fileName: null,
      createdAt: null,
      client: { id: DEMO_PARENT_CLIENT_ID, parentClientId: null },
    });
    const sub = list.body.data.find((d: { id: string }) => d.id === 'doc_retail_tm');
    expect(sub.client.parentClientId).toBe(DEMO_PARENT_CLIENT_ID);

    const detail = await h.api('/v1/documents/doc_parent_loa');
    expect(detail.body.data.signedUrl).toMatch(/^http/);
    const download = await fetch(detail.body.data.signedUrl);
    expect(download.status).toBe(200);
    const signed = await h.api('/v1/documents/doc_parent_loa/signed-url');
    expect(signed.body.data.signedUrl).toMatch(/signature=/);
    expect(
      (await fetch(signed.body.data.signedUrl.replace(/signature=[0-9a-f]+/, 'signature=00')))
        .status,
    ).toBe(403);
    expect((await h.api('/v1/documents/doc_other_loa')).status).toBe(404);
    expect(
      (await h.api('/v1/documents?docType=loa')).body.data.every(
        (d: { docType: string }) => d.docType === 'loa',
      ),
    ).toBe(true);
  });
});

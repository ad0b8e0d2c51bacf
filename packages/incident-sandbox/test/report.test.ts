import { describe, expect, it } from 'vitest';
import { startSandbox } from './helpers';

describe('POST /v1/incident/tkd and /monitor', () => {
  it('reports URL, domain, social and subject incidents and classifies them', async () => {
    const { api } = await startSandbox();
    const cases = [
      [
        { url: 'https://fake-bank.example/login' },
        {
          incidentType: 'domain',
          url: 'https://fake-bank.example/login',
          domain: 'fake-bank.example',
        },
      ],
      [{ url: 'fake-shop.example' }, { incidentType: 'domain', domain: 'fake-shop.example' }],
      [
        { url: 'https://instagram.com/fake.brand' },
        { incidentType: 'social', url: 'https://instagram.com/fake.brand' },
      ],
      [
        { incidentType: 'email', subject: 'scam@fake-mail.example' },
        { incidentType: 'email', subject: 'scam@fake-mail.example' },
      ],
      [
        { incidentType: 'phone', subject: '+14155550123' },
        { incidentType: 'phone', subject: '+14155550123' },
      ],
      [
        { incidentType: 'ipv4', subject: '192.0.2.10' },
        { incidentType: 'ipv4', subject: '192.0.2.10' },
      ],
    ] as const;
    for (const [body, expected] of cases) {
      const r = await api('/v1/incident/tkd', { method: 'POST', json: body });
      expect(r.status, JSON.stringify(body)).toBe(200);
      expect(r.body.id).toMatch(/^inc_/);
      expect(r.body.url).toContain(`/incident/${r.body.id}`);
      const detail = await api(`/v1/incident/${r.body.id}`);
      expect(detail.body.data).toMatchObject({
        ...expected,
        status: 'pending_review',
        incidentClass: 'other',
      });
    }
  });

  it('accepts multipart/form-data with repeated attachments, at most 12', async () => {
    const { api } = await startSandbox();
    const form = new FormData();
    form.set('url', 'https://multipart-phish.example/a');
    form.set('comment', 'see screenshots');
    for (let i = 0; i < 2; i++)
      form.append('attachments', new Blob([`file ${i}`]), `shot-${i}.png`);
    const ok = await api('/v1/incident/monitor', { method: 'POST', body: form });
    expect(ok.status).toBe(200);
    expect(ok.body.id).toMatch(/^inc_/);

    const tooMany = new FormData();
    tooMany.set('url', 'https://multipart-phish-2.example/a');
    for (let i = 0; i < 13; i++) tooMany.append('attachments', new Blob(['x']), `f${i}.txt`);
    const rejected = await api('/v1/incident/tkd', { method: 'POST', body: tooMany });
    expect(rejected.status).toBe(400);
    expect(rejected.body.message).toContain('attachments');
  });

  it('rejects a request of 10 MB or more with 413', async () => {
    const { api } = await startSandbox();
    const form = new FormData();
    form.set('url', 'https://big-phish.example/a');
    form.append('attachments', new Blob([new Uint8Array(10_000_001)]), 'big.bin');
    const r = await api('/v1/incident/tkd', { method: 'POST', body: form });
    expect(r.status).toBe(413);
    const json = await api('/v1/incident/tkd', {
      method: 'POST',
      json: { url: 'https://big-json.example', comment: 'x'.repeat(10_000_000) },
    });
    expect(json.status).toBe(413);
  });

  it('answers 400 naming the field for invalid reports', async () => {
    const { api } = await startSandbox();
    const cases: [unknown, string][] = [
      [{}, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ incidentType: 'phone', subject: '0207 183 8750' }, 'subject'],
      [{ incidentType: 'email' }, 'subject'],
      [{ incidentType: 'ipv4', subject: '300.1.1.1' }, 'subject'],
      [{ incidentType: 'fax', subject: '123' }, 'incidentType'],
      [{ url: 'https://x-phish.example', comment: null }, 'comment'],
      [{ url: 'https://x-phish.example', reportedBy: 'not-an-email' }, 'reportedBy'],
      [{ url: 'https://x-phish.example', colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const r = await api('/v1/incident/tkd', { method: 'POST', json: body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message, JSON.stringify(body)).toContain(field);
    }
  });

  it('reports for an authorised sub-client and gives 401 for any other clientId', async () => {
    const { api } = await startSandbox();
    const ok = await api('/v1/incident/tkd', {
      method: 'POST',
      json: { url: 'https://retail-phish.example', clientId: 'cl_demo_retail' },
    });
    expect(ok.status).toBe(200);
    expect((await api(`/v1/incident/${ok.body.id}`)).body.data.clientId).toBe('cl_demo_retail');
    const denied = await api('/v1/incident/tkd', {
      method: 'POST',
      json: { url: 'https://other-phish.example', clientId: 'cl_other_org' },
    });
    expect(denied.status).toBe(401);
  });

  it('answers a duplicate with 409, or with 200 and no id on the older path', async () => {
    const { api, control } = await startSandbox();
    const body = { incidentType: 'email', subject: 'dupe@fake-mail.example' };
    expect((await api('/v1/incident/tkd', { method: 'POST', json: body })).status).toBe(200);
    const conflict = await api('/v1/incident/tkd', { method: 'POST', json: body });
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toMatch(/already exists/);

    await control('PATCH', '/settings', { duplicateResponse: 'legacy' });
    const legacy = await api('/v1/incident/monitor', { method: 'POST', json: body });
    expect(legacy.status).toBe(200);
    expect(legacy.body.message).toEqual(expect.any(String));
    expect(legacy.body.id).toBeUndefined();
    expect(legacy.body.url).toBeUndefined();
    const list = await api('/v1/incidents?incidentType=email');
    expect(
      list.body.data.filter((i: { subject: string }) => i.subject === 'dupe@fake-mail.example'),
    ).toHaveLength(1);
  });
});

describe('actions on an existing incident', () => {
  it('comments, attaches, requests takedown, monitoring and marks safe', async () => {
    const { api } = await startSandbox();
    const { body } = await api('/v1/incident/tkd', {
      method: 'POST',
      json: { url: 'https://acts.example/x' },
    });
    const id = body.id as string;

    expect(
      (
        await api(`/v1/incident/${id}/comment`, {
          method: 'POST',
          json: { comment: 'more context', author: 'agent@demo-parent.example' },
        })
      ).status,
    ).toBe(200);
    for (const bad of [{ comment: null }, { comment: '' }, {}, { comment: 'x', author: 'nope' }]) {
      const r = await api(`/v1/incident/${id}/comment`, { method: 'POST', json: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    const form = new FormData();
    form.append('attachments', new Blob(['evidence']), 'evidence.txt');
    expect((await api(`/v1/incident/${id}/attach`, { method: 'POST', body: form })).status).toBe(
      200,
    );

    expect((await api(`/v1/incident/${id}/monitor`, { method: 'POST', json: {} })).status).toBe(
      200,
    );
    expect((await api(`/v1/incident/${id}`)).body.data.status).toBe('pre_weaponised');
    expect((await api(`/v1/incident/${id}/tkd`, { method: 'POST', json: {} })).status).toBe(200);
    expect((await api(`/v1/incident/${id}`)).body.data.status).toBe('case_building');
    expect((await api(`/v1/incident/${id}/safe`, { method: 'POST', json: {} })).status).toBe(200);
    const detail = (await api(`/v1/incident/${id}`)).body.data;
    expect(detail.status).toBe('closed');
    expect(detail.history[0].message).toBe('Marked safe by client');
    expect(
      detail.history.some((h: { message: string }) => h.message.includes('more context')),
    ).toBe(true);
    expect(
      (await api('/v1/incident/nope/comment', { method: 'POST', json: { comment: 'x' } })).status,
    ).toBe(404);
  });
});

describe('report fields as the spec states them (conformance findings)', () => {
  it('accepts subject without url for a domain incident ("url ... unless subject is given")', async () => {
    const { api } = await startSandbox();
    const r = await api('/v1/incident/tkd', {
      method: 'POST',
      json: { subject: 'https://subject-only.example/login' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const detail = (await api(`/v1/incident/${r.body.id}`)).body.data;
    expect(detail).toMatchObject({
      incidentType: 'domain',
      url: 'https://subject-only.example/login',
      domain: 'subject-only.example',
    });
    const bare = await api('/v1/incident/monitor', {
      method: 'POST',
      json: { subject: 'subject-only-2.example' },
    });
    expect(bare.status, JSON.stringify(bare.body)).toBe(200);
  });

  it('accepts an empty comment on a report (only a non-null string is required there)', async () => {
    const { api } = await startSandbox();
    const r = await api('/v1/incident/tkd', {
      method: 'POST',
      json: { url: 'https://empty-comment.example/x', comment: '' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it('accepts URLs on an IPv4 host and on internationalised top-level domains', async () => {
    const { api } = await startSandbox();
    const cases = [
      ['http://203.0.113.7/login', { url: 'http://203.0.113.7/login', domain: '203.0.113.7' }],
      ['https://login.example.xn--p1ai/a', { domain: 'login.example.xn--p1ai' }],
      ['пример.рф', { domain: 'xn--e1afmkfd.xn--p1ai' }],
      ['https://пример.рф/вход', { domain: 'xn--e1afmkfd.xn--p1ai' }],
    ] as const;
    for (const [url, expected] of cases) {
      const r = await api('/v1/incident/tkd', { method: 'POST', json: { url } });
      expect(r.status, `${url}: ${JSON.stringify(r.body)}`).toBe(200);
      expect((await api(`/v1/incident/${r.body.id}`)).body.data).toMatchObject({
        incidentType: 'domain',
        ...expected,
      });
    }
  });

  it("prefixes format failures with Invalid parameter '<field>':", async () => {
    const { api } = await startSandbox();
    const cases: [unknown, string][] = [
      [{ url: 'https://bad host.example' }, "Invalid parameter 'url': "],
      [{ url: 'https://-bad-.example' }, "Invalid parameter 'url': must be a valid URL or domain"],
      [{ subject: 'not a domain' }, "Invalid parameter 'subject': "],
      [{ incidentType: 'phone', subject: '0207 183 8750' }, "Invalid parameter 'subject': "],
    ];
    for (const [body, prefix] of cases) {
      const r = await api('/v1/incident/tkd', { method: 'POST', json: body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(
        r.body.message.startsWith(prefix),
        `${JSON.stringify(body)} -> ${r.body.message}`,
      ).toBe(true);
    }
  });
});

describe('clientId authorisation on every endpoint', () => {
  it('answers 401 to a clientId the key is not authorised for, in the query or the body, on every endpoint', async () => {
    const { api } = await startSandbox();
    const { body } = await api('/v1/incident/tkd', {
      method: 'POST',
      json: { url: 'https://authz.example/x' },
    });
    const id = body.id as string;
    const form = () => {
      const f = new FormData();
      f.append('attachments', new Blob(['evidence']), 'evidence.txt');
      return f;
    };
    const q = '?clientId=cl_other_org';
    const calls: [string, RequestInit & { json?: unknown }][] = [
      [`/v1/incident/${id}/attach${q}`, { method: 'POST', body: form() }],
      [`/v1/incident/${id}/comment${q}`, { method: 'POST', json: { comment: 'x' } }],
      [`/v1/incident/${id}/approve-takedown${q}`, { method: 'POST', json: { author: 'Ana' } }],
      [`/v1/incident/${id}/tkd${q}`, { method: 'POST', json: {} }],
      [`/v1/incident/${id}/monitor${q}`, { method: 'POST', json: {} }],
      [`/v1/incident/${id}/safe${q}`, { method: 'POST', json: {} }],
      [`/v1/incident/tkd${q}`, { method: 'POST', json: { url: 'https://authz-2.example/x' } }],
      [`/v1/incident/${id}${q}`, {}],
      [`/v1/incident/${id}/snapshots${q}`, {}],
      [`/v1/incident/subject/authz.example${q}`, {}],
      [`/v1/incidents${q}`, {}],
      [`/v1/incidents/resolutions${q}`, {}],
      [`/v1/usage${q}`, {}],
      [`/v1/users${q}`, {}],
      [`/v1/clients${q}`, {}],
      [`/v1/documents${q}`, {}],
      [`/v1/webhooks${q}`, {}],
      [
        `/v1/webhooks${q}`,
        {
          method: 'POST',
          json: { url: 'https://hooks.example/x', events: ['incident.created'], description: 'x' },
        },
      ],
    ];
    for (const [path, init] of calls) {
      const r = await api(path, init);
      expect(r.status, `${init.method ?? 'GET'} ${path}: ${JSON.stringify(r.body)}`).toBe(401);
    }
    const multipartField = form();
    multipartField.set('clientId', 'cl_other_org');
    expect(
      (await api(`/v1/incident/${id}/attach`, { method: 'POST', body: multipartField })).status,
    ).toBe(401);
    expect((await api(`/v1/incident/${id}/attach`, { method: 'POST', body: form() })).status).toBe(
      200,
    );
  });
});

import {
  APIConnectionError,
  assumptions,
  createIncidentClient,
  DuplicateIncidentError,
  InsufficientCreditsError,
  InvalidParameterError,
  maxAttachFileBytes,
  NotAwaitingApprovalError,
  NotFoundError,
  RateLimitError,
  ResolutionsForbiddenError,
  TemporarilyUnavailableError,
  UnauthorizedError,
  verifyWebhook,
  type IncidentClientOptions,
} from '@incident-desk/incident-api';
import { describe, expect, it } from 'vitest';
import {
  DEMO_API_KEY,
  DEMO_BANK_CLIENT_ID,
  DEMO_PARENT_CLIENT_ID,
  DEMO_RETAIL_CLIENT_ID,
  OTHER_ORG_API_KEY,
} from '../src';
import { startReceiver, startSandbox, type Harness } from './helpers';

// The same contract, driven through the project's typed client (what the connector uses). Rows of
// the Errors table that the client's strict writer refuses to send (most 400s) are covered over
// raw HTTP in the per-endpoint suites.

function clientFor(h: Harness, options: Partial<IncidentClientOptions> = {}) {
  return createIncidentClient({ baseURL: h.url, apiKey: DEMO_API_KEY, retry: false, ...options });
}

describe('contract through @incident-desk/incident-api', () => {
  it('reports, reads, lists and acts on incidents', async () => {
    const h = await startSandbox();
    const client = clientFor(h);
    const reported = await client.incidents.reportTakedown({
      url: 'https://client-contract.example/login',
      reportedBy: 'agent@demo-parent.example',
      comment: 'from the client',
    });
    expect(reported.id).toMatch(/^inc_/);
    expect(reported.url).toContain(reported.id);
    const monitored = await client.incidents.reportMonitoring({
      incidentType: 'phone',
      subject: '+14155550199',
      attachments: [
        {
          filename: 'call.txt',
          content: new TextEncoder().encode('transcript'),
          contentType: 'text/plain',
        },
      ],
    });

    const detail = await client.incidents.retrieve(reported.id);
    expect(detail).toMatchObject({
      status: 'pending_review',
      incidentType: 'domain',
      clientId: DEMO_PARENT_CLIENT_ID,
    });
    expect((await client.incidents.retrieve(detail.id)).id).toBe(detail.id);
    expect((await client.incidents.retrieveBySubject('+14155550199')).subject).toBe('+14155550199');
    expect((await client.incidents.snapshots(reported.id)).snapshots).toHaveLength(1);
    expect((await client.incidents.snapshots(monitored.id)).snapshots).toEqual([]);

    const all = await client.incidents.list({ includeTotal: true }).toArray();
    const firstPage = await client.incidents.listPage({ limit: 5, includeTotal: true });
    expect(firstPage.paging.total).toBe(all.length);
    const paged = await client.incidents.list({ limit: 5 }).toArray();
    expect(paged.map((i) => i.id)).toEqual(all.map((i) => i.id));
    expect(
      (await client.incidents.list({ status: 'closed' }).toArray()).every(
        (i) => i.status === 'closed',
      ),
    ).toBe(true);

    await client.incidents.comment(reported.id, { comment: 'follow-up' });
    await client.incidents.attach(reported.id, [
      { filename: 'shot.png', content: new Uint8Array([1, 2, 3]) },
    ]);
    await client.incidents.requestMonitoring(reported.id);
    expect((await client.incidents.retrieve(reported.id)).status).toBe('pre_weaponised');
    await client.incidents.requestTakedown(reported.id);
    expect((await client.incidents.retrieve(reported.id)).status).toBe('case_building');
    await client.incidents.markSafe(reported.id);
    expect((await client.incidents.retrieve(reported.id)).status).toBe('closed');
  });

  it('takes exactly 50,000,000 bytes per attach request, as the client reads 50 MB, with a proper plural', async () => {
    const h = await startSandbox();
    const client = clientFor(h);
    const [incident] = await client.incidents.list({ clientId: DEMO_PARENT_CLIENT_ID }).toArray();
    const limit = await maxAttachFileBytes('big.png', 'image/png');
    await client.incidents.attach(incident!.id, [
      { filename: 'big.png', contentType: 'image/png', content: new Uint8Array(limit) },
    ]);
    await client.incidents.attach(incident!.id, [
      { filename: 'a.png', contentType: 'image/png', content: new Uint8Array(1) },
      { filename: 'b.png', contentType: 'image/png', content: new Uint8Array(1) },
    ]);
    const messages = (await client.incidents.retrieve(incident!.id)).history.map(
      (entry) => entry.message,
    );
    expect(messages).toEqual(expect.arrayContaining(['1 attachment added', '2 attachments added']));
    expect(messages.join()).not.toContain('(s)');
    // one byte over, sent by hand past the client's own check (a browser's envelope: its own size)
    const formOf = (size: number) => {
      const form = new FormData();
      form.append(
        'attachments',
        new Blob([new Uint8Array(size)], { type: 'image/png' }),
        'big.png',
      );
      return form;
    };
    const envelope = (await new Response(formOf(0)).arrayBuffer()).byteLength;
    const form = formOf(assumptions.MAX_ATTACH_BYTES - envelope + 1);
    const response = await fetch(`${h.url}/v1/incident/${incident!.id}/attach`, {
      method: 'POST',
      headers: { 'x-api-key': DEMO_API_KEY },
      body: form,
    });
    expect(response.status).toBe(413);
  });

  it('file names arrive as written: accented, CJK and emoji, quotes and percent signs', async () => {
    const h = await startSandbox();
    const client = clientFor(h);
    const [incident] = await client.incidents.list({ clientId: DEMO_PARENT_CLIENT_ID }).toArray();
    const names = [
      "capture d'écran 2026-11-28.png",
      '証拠のスクリーンショット.png',
      'phish 🎣 "login" 100%.png',
    ];
    await client.incidents.attach(
      incident!.id,
      names.map((filename) => ({ filename, contentType: 'image/png', content: new Uint8Array(1) })),
    );
    const stored = h.sandbox.store.findIncident(incident!.id, [DEMO_PARENT_CLIENT_ID])!;
    expect(stored.attachments.slice(-3).map((file) => file.fileName)).toEqual(names);
  });

  it('approves a takedown and reads usage', async () => {
    const h = await startSandbox();
    const client = clientFor(h);
    const [waiting] = await client.incidents
      .list({ status: 'approval_required', clientId: DEMO_PARENT_CLIENT_ID })
      .toArray();
    const before = await client.usage.retrieve();
    const approved = await client.incidents.approveTakedown(waiting!.id, {
      author: 'Jane Approver',
    });
    expect(approved.id).toBe(waiting!.id);
    expect((await client.incidents.retrieve(waiting!.id)).status).toBe('takedown_ready');
    expect((await client.usage.retrieve()).remainingCredits).toBe(
      (before.remainingCredits as number) - 1,
    );
    expect(
      (await client.usage.retrieve({ clientId: DEMO_RETAIL_CLIENT_ID })).remainingCredits,
    ).toBe('unlimited');
    expect(
      (await client.usage.retrieve({ clientId: DEMO_BANK_CLIENT_ID })).remainingCredits,
    ).toBeNull();
    await expect(
      client.incidents.approveTakedown(waiting!.id, { author: 'Jane Approver' }),
    ).rejects.toBeInstanceOf(NotAwaitingApprovalError);
  });

  it('walks resolutions with filters, users by offset, clients and documents', async () => {
    const h = await startSandbox();
    const client = clientFor(h);
    const reinitiated = await client.resolutions.list({ reinitiatedAfter: 'success' }).toArray();
    expect(reinitiated.map((r) => r.subject)).toEqual(['demo-retail-sale.example']);
    const paged = await client.resolutions.list({ limit: 2, minTakedownAttempts: 1 }).toArray();
    const unpaged = await client.resolutions.listPage({
      limit: 100,
      minTakedownAttempts: 1,
      includeTotal: true,
    });
    expect(paged.map((r) => r.id)).toEqual(unpaged.data.map((r) => r.id));
    expect(unpaged.paging.total).toBe(unpaged.data.length);
    const search = await client.resolutions.listPage({ search: 'demo-bank-rewards' });
    expect(search.data[0]!.takedownAttempts).toEqual([
      { startedAt: expect.any(String), resolvedAt: null, outcome: 'closed' },
    ]);

    const users = await client.users.list({ limit: 2 }).toArray();
    expect(users).toHaveLength(5);
    expect(users.every((u) => !u.roles.includes('admin'))).toBe(true);

    expect((await client.clients.list()).map((c) => c.id).sort()).toEqual(
      [DEMO_BANK_CLIENT_ID, DEMO_PARENT_CLIENT_ID, DEMO_RETAIL_CLIENT_ID].sort(),
    );
    const documents = await client.documents.list();
    expect(documents.length).toBeGreaterThan(0);
    expect((await client.documents.retrieve(documents[0]!.id)).signedUrl).toMatch(/^http/);
    expect((await client.documents.signedUrl(documents[0]!.id)).signedUrl).toMatch(/signature=/);
  });

  it('manages webhooks and delivers verifiable events', async () => {
    const h = await startSandbox();
    const client = clientFor(h);
    const receiver = await startReceiver();
    const created = await client.webhooks.create({
      url: receiver.url,
      events: ['incident.created'],
      description: 'client',
    });
    expect(created.secret).toMatch(/^whsec_/);
    const listed = await client.webhooks.list();
    expect(listed[0]).not.toHaveProperty('secret');
    await client.webhooks.update(created.id!, {
      events: ['incident.created', 'incident.status_changed'],
    });
    const rotated = await client.webhooks.rotateSecret(created.id!);
    await client.webhooks.test(created.id!);
    await client.incidents.reportTakedown({ incidentType: 'ipv4', subject: '203.0.113.77' });
    await receiver.waitFor(2);
    for (const d of receiver.received) {
      expect(
        verifyWebhook({
          secrets: rotated.secret,
          rawBody: d.rawBody,
          headers: d.headers as Record<string, string>,
        }).ok,
      ).toBe(true);
    }
    expect(receiver.received.map((d) => d.body.event).sort()).toEqual([
      'incident.created',
      'webhook.test',
    ]);
    await client.webhooks.delete(created.id!);
    expect(await client.webhooks.list()).toEqual([]);
  });

  describe('Errors table', () => {
    it('401: bad key, and clientId outside the key (usage message)', async () => {
      const h = await startSandbox();
      await expect(clientFor(h, { apiKey: 'wrong' }).usage.retrieve()).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      const client = clientFor(h);
      const usage = await client.usage
        .retrieve({ clientId: 'cl_other_org' })
        .catch((e: unknown) => e);
      expect(usage).toBeInstanceOf(UnauthorizedError);
      expect((usage as UnauthorizedError).serviceMessage).toBe(
        'Unauthorized. Please ensure client ID is valid.',
      );
      await expect(
        client.resolutions.listPage({ clientId: 'cl_other_org' }),
      ).rejects.toBeInstanceOf(UnauthorizedError);
      await expect(client.users.listPage({ clientId: 'cl_other_org' })).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      await expect(client.incidents.listPage({ clientId: 'cl_other_org' })).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      await expect(
        client.incidents.reportTakedown({ url: 'https://x-401.example', clientId: 'cl_other_org' }),
      ).rejects.toBeInstanceOf(UnauthorizedError);
    });

    it('400 rows the client can send: users over 10 clients, unknown cursors', async () => {
      const h = await startSandbox();
      const ids: string[] = [];
      for (let i = 0; i < 11; i++)
        ids.push((await h.control('POST', '/clients', { name: `R${i}` })).body.id);
      const reseller = (await h.control('POST', '/keys', { clientId: ids[0], clientIds: ids })).body
        .key as string;
      await expect(clientFor(h, { apiKey: reseller }).users.listPage()).rejects.toBeInstanceOf(
        InvalidParameterError,
      );
      await expect(clientFor(h).resolutions.listPage({ cursor: 'missing' })).rejects.toBeInstanceOf(
        InvalidParameterError,
      );
      await expect(clientFor(h).incidents.listPage({ cursor: 'missing' })).rejects.toBeInstanceOf(
        InvalidParameterError,
      );
    });

    it('403: resolutions not enabled or no scope; approve without credits', async () => {
      const h = await startSandbox();
      await expect(
        clientFor(h, { apiKey: OTHER_ORG_API_KEY }).resolutions.listPage(),
      ).rejects.toBeInstanceOf(ResolutionsForbiddenError);
      const noScope = (
        await h.control('POST', '/keys', { clientId: DEMO_PARENT_CLIENT_ID, scopes: [] })
      ).body.key as string;
      await expect(clientFor(h, { apiKey: noScope }).resolutions.listPage()).rejects.toBeInstanceOf(
        ResolutionsForbiddenError,
      );
      await h.control('PATCH', `/clients/${DEMO_PARENT_CLIENT_ID}`, { credits: 0 });
      const [waiting] = await clientFor(h)
        .incidents.list({ status: 'approval_required', clientId: DEMO_PARENT_CLIENT_ID })
        .toArray();
      await expect(
        clientFor(h).incidents.approveTakedown(waiting!.id, { author: 'a' }),
      ).rejects.toBeInstanceOf(InsufficientCreditsError);
    });

    it('404: incident, subject, snapshots, approve-takedown, and a failing resolutions page', async () => {
      const h = await startSandbox();
      const client = clientFor(h);
      await expect(client.incidents.retrieve('missing')).rejects.toBeInstanceOf(NotFoundError);
      await expect(
        client.incidents.retrieveBySubject('nobody@nowhere.example'),
      ).rejects.toBeInstanceOf(NotFoundError);
      await expect(client.incidents.snapshots('inc_missing')).rejects.toBeInstanceOf(NotFoundError);
      await expect(
        client.incidents.approveTakedown('missing', { author: 'a' }),
      ).rejects.toBeInstanceOf(NotFoundError);
      const [first] = (await client.resolutions.listPage({ limit: 1 })).data;
      await h.control('PATCH', `/incidents/${first!.id}`, { unreadable: true });
      await expect(client.resolutions.listPage({ limit: 1 })).rejects.toBeInstanceOf(NotFoundError);
    });

    it('409 and 200-without-id duplicates both surface as DuplicateIncidentError', async () => {
      const h = await startSandbox();
      const client = clientFor(h);
      const report = { incidentType: 'email' as const, subject: 'dup@client-contract.example' };
      await client.incidents.reportTakedown(report);
      const conflict = await client.incidents.reportTakedown(report).catch((e: unknown) => e);
      expect(conflict).toBeInstanceOf(DuplicateIncidentError);
      expect((conflict as DuplicateIncidentError).status).toBe(409);
      await h.control('PATCH', '/settings', { duplicateResponse: 'legacy' });
      const legacy = await client.incidents.reportTakedown(report).catch((e: unknown) => e);
      expect(legacy).toBeInstanceOf(DuplicateIncidentError);
      expect((legacy as DuplicateIncidentError).status).toBe(200);
    });

    it('502/503 on resolutions, 503 on usage and approve-takedown, 429 and dropped connections', async () => {
      const h = await startSandbox();
      const client = clientFor(h);
      for (const [path, call] of [
        ['/v1/incidents/resolutions', () => client.resolutions.listPage()],
        ['/v1/usage', () => client.usage.retrieve()],
        [
          '/v1/incident/:id/approve-takedown',
          () => client.incidents.approveTakedown('any', { author: 'a' }),
        ],
      ] as const) {
        await h.control('POST', '/faults', { path, kind: 'status', status: 503, times: 1 });
        await expect(call()).rejects.toBeInstanceOf(TemporarilyUnavailableError);
      }
      await h.control('POST', '/faults', {
        path: '/v1/incidents/resolutions',
        kind: 'status',
        status: 502,
        times: 1,
      });
      await expect(client.resolutions.listPage()).rejects.toBeInstanceOf(
        TemporarilyUnavailableError,
      );
      await h.control('POST', '/faults', {
        path: '/v1/usage',
        kind: 'rate_limit',
        retryAfterSeconds: 3,
        times: 1,
      });
      await expect(client.usage.retrieve()).rejects.toBeInstanceOf(RateLimitError);
      await h.control('POST', '/faults', { path: '/v1/usage', kind: 'drop', times: 1 });
      await expect(client.usage.retrieve()).rejects.toBeInstanceOf(APIConnectionError);
    });

    it('a transient fault is absorbed by the client retry policy, honouring Retry-After', async () => {
      const h = await startSandbox();
      const sleeps: number[] = [];
      const client = clientFor(h, {
        retry: { maxRetries: 2 },
        sleep: async (ms) => void sleeps.push(ms),
      });
      await h.control('POST', '/faults', {
        path: '/v1/usage',
        kind: 'rate_limit',
        retryAfterSeconds: 2,
        times: 1,
      });
      await h.control('POST', '/faults', {
        path: '/v1/incidents/resolutions',
        kind: 'status',
        status: 503,
        times: 1,
      });
      expect((await client.usage.retrieve()).clientId).toBe(DEMO_PARENT_CLIENT_ID);
      expect((await client.resolutions.listPage()).data.length).toBeGreaterThan(0);
      expect(sleeps[0]).toBe(2000);
      expect(sleeps).toHaveLength(2);
    });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_REPORT_BYTES,
  PayloadTooLargeError,
  RequestValidationError,
  type IncidentClient,
} from '../src';
import {
  clientAccount,
  detailedIncidentSparse,
  documentFull,
  documentNulls,
  snapshotFull,
  usageUnlimited,
} from './support/fixtures';
import { startStubServer, type StubServer } from './support/stub-server';

let stub: StubServer;

beforeAll(async () => {
  stub = await startStubServer();
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

const incidentOk = { json: { message: 'success', data: detailedIncidentSparse } };

describe('every request', () => {
  it('carries x-api-key, the user agent and accepts JSON', async () => {
    stub.enqueue(incidentOk, { json: { message: 'success', data: usageUnlimited } });
    const client = stub.client({ apiKey: 'key_abc', userAgent: 'incident-desk-connector/1.0' });
    await client.incidents.retrieve('inc_1');
    await client.usage.retrieve();
    for (const request of stub.requests) {
      expect(request.headers['x-api-key']).toBe('key_abc');
      expect(request.headers['user-agent']).toBe('incident-desk-connector/1.0');
      expect(request.headers.accept).toBe('application/json');
    }
  });

  it('keeps a path prefix of baseURL and ignores its trailing slash', async () => {
    stub.enqueue(incidentOk);
    await stub.client({ baseURL: `${stub.url}/gateway/` }).incidents.retrieve('inc_1');
    expect(stub.requests[0]?.rawUrl).toBe('/gateway/v1/incident/inc_1');
  });

  it('uses an injected fetch', async () => {
    const seen: string[] = [];
    const client = stub.client({
      baseURL: 'https://incident.invalid',
      fetch: async (input) => {
        seen.push(input);
        return new Response(JSON.stringify(incidentOk.json), { status: 200 });
      },
    });
    await client.incidents.retrieve('inc_1');
    expect(seen).toEqual(['https://incident.invalid/v1/incident/inc_1']);
  });
});

describe('path segments are percent-encoded (ids are opaque)', () => {
  it('encodes a subject that is a URL with slashes, spaces, ? and #', async () => {
    stub.enqueue(incidentOk);
    await stub.client().incidents.retrieveBySubject('https://bad.example/a b?c=1#d');
    expect(stub.requests[0]?.rawUrl).toBe(
      '/v1/incident/subject/https%3A%2F%2Fbad.example%2Fa%20b%3Fc%3D1%23d',
    );
  });

  it('encodes ids with slashes and plus signs as one segment', async () => {
    stub.enqueue({
      json: { message: 'success', data: { incidentId: 'a/b', snapshots: [snapshotFull] } },
    });
    await stub.client().incidents.snapshots('inc_a/../b+c');
    expect(stub.requests[0]?.rawUrl).toBe('/v1/incident/inc_a%2F..%2Fb%2Bc/snapshots');
  });

  it.each(['', '.', '..'])('refuses the id %j before sending anything', async (id) => {
    await expect(stub.client().incidents.retrieve(id)).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    expect(stub.requests).toHaveLength(0);
  });
});

describe('reports', () => {
  it('sends a JSON report with the default clientId and returns id and dashboard url', async () => {
    stub.enqueue({
      json: {
        message: 'Incident reported',
        id: 'inc_9',
        url: 'https://dash.example/incident/inc_9',
      },
    });
    const result = await stub.client({ clientId: 'sub_1' }).incidents.reportTakedown({
      url: 'https://bad.example/login',
      reportedBy: 'ana@example.com',
      comment: 'urgent',
    });
    expect(result).toEqual({
      id: 'inc_9',
      url: 'https://dash.example/incident/inc_9',
      message: 'Incident reported',
    });
    const request = stub.requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.url.pathname).toBe('/v1/incident/tkd');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.json()).toEqual({
      url: 'https://bad.example/login',
      reportedBy: 'ana@example.com',
      comment: 'urgent',
      clientId: 'sub_1',
    });
  });

  it('lets the call name its own clientId over the default', async () => {
    stub.enqueue({ json: { message: 'ok', id: 'inc_1' } });
    await stub.client({ clientId: 'sub_1' }).incidents.reportMonitoring({
      incidentType: 'phone',
      subject: '+14155550123',
      clientId: 'sub_2',
    });
    expect(stub.requests[0]?.url.pathname).toBe('/v1/incident/monitor');
    expect(stub.requests[0]?.json()).toMatchObject({ clientId: 'sub_2', incidentType: 'phone' });
  });

  it('sends attachments as multipart/form-data with the attachments part repeated per file', async () => {
    stub.enqueue({ json: { message: 'ok', id: 'inc_1' } });
    await stub.client().incidents.reportTakedown({
      url: 'bad.example',
      comment: 'see screenshots',
      attachments: [
        { filename: 'one.png', content: new Uint8Array([1, 2, 3]), contentType: 'image/png' },
        { filename: 'two.txt', content: new Blob(['hello'], { type: 'text/plain' }) },
      ],
    });
    const request = stub.requests[0];
    expect(String(request?.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    const form = await request!.formData();
    expect(form.get('url')).toBe('bad.example');
    expect(form.get('comment')).toBe('see screenshots');
    const files = form.getAll('attachments') as File[];
    expect(files.map((f) => f.name)).toEqual(['one.png', 'two.txt']);
    expect(files.map((f) => f.type)).toEqual(['image/png', 'text/plain']);
    expect(new Uint8Array(await files[0]!.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect(await files[1]!.text()).toBe('hello');
  });

  it('rejects an invalid report without sending it, naming the field', async () => {
    const error = await stub
      .client()
      .incidents.reportTakedown({ incidentType: 'phone', subject: '07700 900000' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toContain('subject: subject must be an E.164 phone number');
    expect(stub.requests).toHaveLength(0);
  });

  it('rejects a report whose encoded multipart body reaches 10 MB, before sending', async () => {
    const content = new Uint8Array(MAX_REPORT_BYTES - 'bad.example'.length - 10);
    const error = await stub
      .client()
      .incidents.reportTakedown({
        url: 'bad.example',
        attachments: [{ filename: 'big.bin', content }],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toContain('a report must total under 10000000 bytes');
    expect(stub.requests).toHaveLength(0);
  });
});

describe('the 10 MB limit on JSON reports', () => {
  it('rejects a JSON report whose encoded body reaches 10 MB, before sending, naming the limit', async () => {
    // 6 MB of text passes the text-size rule but JSON escapes each quote as two bytes: 12 MB on the wire
    const error = await stub
      .client()
      .incidents.reportTakedown({ url: 'bad.example', comment: '"'.repeat(6_000_000) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toContain('a report must total under 10000000 bytes (10 MB)');
    expect(stub.requests).toHaveLength(0);
  });

  it('sends a JSON report just under the limit as application/json', async () => {
    stub.enqueue({ json: { message: 'ok', id: 'inc_1' } });
    const overhead = JSON.stringify({ url: 'bad.example', comment: '' }).length;
    const comment = 'x'.repeat(MAX_REPORT_BYTES - overhead - 1);
    await stub.client().incidents.reportTakedown({ url: 'bad.example', comment });
    expect(stub.requests[0]?.headers['content-type']).toBe('application/json');
    expect((stub.requests[0]?.json() as { comment: string }).comment).toHaveLength(comment.length);
  });

  it('maps a 413 from the service to PayloadTooLargeError', async () => {
    stub.enqueue({ status: 413, json: { message: 'Request entity too large' } });
    const error = await stub
      .client()
      .incidents.reportTakedown({ url: 'bad.example' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(stub.requests).toHaveLength(1);
  });
});

type EndpointCase = {
  name: string;
  call: (client: IncidentClient) => Promise<unknown>;
  reply: unknown;
  method: string;
  rawUrl: string;
  body?: unknown;
  expected?: unknown;
};

// Every endpoint of the spec, including those whose shapes are assumed (assumptions.ts).
const endpoints: EndpointCase[] = [
  {
    name: 'incident by id',
    call: (c) => c.incidents.retrieve('inc_1'),
    reply: incidentOk.json,
    method: 'GET',
    rawUrl: '/v1/incident/inc_1',
  },
  {
    name: 'approve-takedown',
    call: (c) => c.incidents.approveTakedown('inc_1', { author: 'Ana Silva' }),
    reply: { message: 'Takedown approved', id: 'inc_1' },
    method: 'POST',
    rawUrl: '/v1/incident/inc_1/approve-takedown',
    body: { author: 'Ana Silva' },
    expected: { message: 'Takedown approved', id: 'inc_1' },
  },
  {
    name: 'usage with the default clientId',
    call: (c) => c.usage.retrieve(),
    reply: { message: 'success', data: usageUnlimited },
    method: 'GET',
    rawUrl: '/v1/usage?clientId=sub_1',
    expected: usageUnlimited,
  },
  {
    name: 'comment',
    call: (c) =>
      c.incidents.comment('inc_1', { comment: 'Please prioritise', author: 'ana@example.com' }),
    reply: { message: 'Comment added' },
    method: 'POST',
    rawUrl: '/v1/incident/inc_1/comment',
    body: { comment: 'Please prioritise', author: 'ana@example.com' },
    expected: { message: 'Comment added' },
  },
  {
    name: 'takedown on an existing incident',
    call: (c) => c.incidents.requestTakedown('inc_1'),
    reply: { message: 'ok' },
    method: 'POST',
    rawUrl: '/v1/incident/inc_1/tkd',
    body: {},
  },
  {
    name: 'monitoring on an existing incident',
    call: (c) => c.incidents.requestMonitoring('inc_1', { comment: 'watch it' }),
    reply: { message: 'ok' },
    method: 'POST',
    rawUrl: '/v1/incident/inc_1/monitor',
    body: { comment: 'watch it' },
  },
  {
    name: 'mark safe',
    call: (c) => c.incidents.markSafe('inc_1'),
    reply: { message: 'ok' },
    method: 'POST',
    rawUrl: '/v1/incident/inc_1/safe',
    body: {},
  },
  {
    name: 'webhook creation (secret returned once, clientId in body)',
    call: (c) =>
      c.webhooks.create({
        url: 'https://hooks.example/in',
        events: ['incident.created'],
        description: 'desk',
      }),
    reply: {
      message: 'created',
      data: {
        id: 'wh_1',
        url: 'https://hooks.example/in',
        events: ['incident.created'],
        secret: 's3cret',
      },
    },
    method: 'POST',
    rawUrl: '/v1/webhooks',
    body: {
      url: 'https://hooks.example/in',
      events: ['incident.created'],
      description: 'desk',
      clientId: 'sub_1',
    },
    expected: { id: 'wh_1', secret: 's3cret' },
  },
  {
    name: 'webhook list (bare array)',
    call: (c) => c.webhooks.list(),
    reply: [{ id: 'wh_1', url: 'https://hooks.example/in', events: ['incident.created'] }],
    method: 'GET',
    rawUrl: '/v1/webhooks',
    expected: [{ id: 'wh_1', url: 'https://hooks.example/in', events: ['incident.created'] }],
  },
  {
    name: 'webhook update',
    call: (c) =>
      c.webhooks.update('wh/1', { events: ['incident.created', 'incident.status_changed'] }),
    reply: { message: 'updated' },
    method: 'PATCH',
    rawUrl: '/v1/webhooks/wh%2F1',
    body: { events: ['incident.created', 'incident.status_changed'] },
  },
  {
    name: 'webhook delete',
    call: (c) => c.webhooks.delete('wh_1'),
    reply: { message: 'deleted' },
    method: 'DELETE',
    rawUrl: '/v1/webhooks/wh_1',
  },
  {
    name: 'webhook test delivery',
    call: (c) => c.webhooks.test('wh_1'),
    reply: { message: 'sent' },
    method: 'POST',
    rawUrl: '/v1/webhooks/wh_1/test',
  },
  {
    name: 'webhook secret rotation',
    call: (c) => c.webhooks.rotateSecret('wh_1'),
    reply: { message: 'rotated', data: { secret: 'new_secret' } },
    method: 'POST',
    rawUrl: '/v1/webhooks/wh_1/rotate-secret',
    expected: { secret: 'new_secret' },
  },
  {
    name: 'clients',
    call: (c) => c.clients.list(),
    reply: { message: 'success', data: [clientAccount] },
    method: 'GET',
    rawUrl: '/v1/clients',
    expected: [clientAccount],
  },
  {
    name: 'documents',
    call: (c) => c.documents.list({ docType: 'loa' }),
    reply: { message: 'success', data: [documentFull, documentNulls] },
    method: 'GET',
    rawUrl: '/v1/documents?docType=loa&clientId=sub_1',
    expected: [documentFull, documentNulls],
  },
  {
    name: 'document detail',
    call: (c) => c.documents.retrieve('doc_1'),
    reply: { message: 'success', data: documentFull },
    method: 'GET',
    rawUrl: '/v1/documents/doc_1',
    expected: documentFull,
  },
  {
    name: 'document signed URL',
    call: (c) => c.documents.signedUrl('doc_1'),
    reply: { message: 'success', data: { signedUrl: 'https://files.example/doc_1?sig=x' } },
    method: 'GET',
    rawUrl: '/v1/documents/doc_1/signed-url',
    expected: { signedUrl: 'https://files.example/doc_1?sig=x' },
  },
];

describe('one method per endpoint', () => {
  it.each(endpoints)('$name', async ({ call, reply, method, rawUrl, body, expected }) => {
    stub.enqueue({ json: reply });
    const result = await call(stub.client({ clientId: 'sub_1' }));
    const request = stub.requests[0];
    expect(request?.method).toBe(method);
    expect(request?.rawUrl).toBe(rawUrl);
    if (body !== undefined) expect(request?.json()).toEqual(body);
    if (expected !== undefined) expect(result).toMatchObject(expected as object);
  });

  it('attaches evidence to an existing incident as multipart', async () => {
    stub.enqueue({ json: { message: 'attached' } });
    await stub.client().incidents.attach('inc_1', [
      { filename: 'a.png', content: new Uint8Array([1]) },
      { filename: 'b.png', content: new Uint8Array([2]) },
    ]);
    const request = stub.requests[0];
    expect(request?.rawUrl).toBe('/v1/incident/inc_1/attach');
    const form = await request!.formData();
    expect((form.getAll('attachments') as File[]).map((f) => f.name)).toEqual(['a.png', 'b.png']);
  });

  it('rejects an empty attachment list and an empty comment before sending', async () => {
    await expect(stub.client().incidents.attach('inc_1', [])).rejects.toThrow(
      'attachments must contain at least one file',
    );
    await expect(stub.client().incidents.comment('inc_1', { comment: '' })).rejects.toThrow(
      'comment must not be empty',
    );
    await expect(
      stub.client().incidents.approveTakedown('inc_1', { author: 'x'.repeat(257) }),
    ).rejects.toThrow('author must be at most 256 characters');
    expect(stub.requests).toHaveLength(0);
  });
});

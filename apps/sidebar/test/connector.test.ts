import { describe, expect, it } from 'vitest';
import { createConnectorApi } from '../src/app/api/connector';
import { toConnectorError } from '../src/app/api/connectorErrors';
import { createFakeZafClient, type FakeReply } from './fakeZafClient';
import { linkedView } from './fixtures';
import { TEST_CONNECTOR, zafTransport } from './zafTransport';

function apiReplying(reply: FakeReply) {
  const client = createFakeZafClient({ handler: () => reply });
  return { client, api: createConnectorApi(zafTransport(client)) };
}

describe('connector module', () => {
  it('asks the connector that served the page, naming no agent and holding no secret', async () => {
    const { client, api } = apiReplying({ status: 200, body: linkedView() });
    const result = await api.getTicketView(42);
    expect(result.ok).toBe(true);
    const [request] = client.requests;
    expect(request).toMatchObject({ url: `${TEST_CONNECTOR}/sidebar/tickets/42`, type: 'GET' });
    // who asks is the page's session: nothing in the request says which agent, nor any secret
    expect(request!.jwt).toBeUndefined();
    expect(JSON.stringify(request)).not.toMatch(/agent|secret|jwt/i);
  });

  it('approves without naming the author: the connector takes the session’s agent', async () => {
    const { client, api } = apiReplying({ status: 200, body: { message: 'ok' } });
    expect((await api.approveTakedown(42)).ok).toBe(true);
    expect(JSON.parse(client.requests[0]!.data!)).toEqual({});
  });

  it('posts JSON bodies and percent-encodes path segments', async () => {
    const { client, api } = apiReplying({ status: 200, body: { message: 'ok' } });
    expect(await api.retryForward(42, '../admin?x=1')).toEqual({
      ok: true,
      value: { message: 'ok' },
    });
    const [request] = client.requests;
    expect(request!.url).toBe(
      `${TEST_CONNECTOR}/sidebar/tickets/42/forwards/..%2Fadmin%3Fx%3D1/retry`,
    );
    expect(request!.type).toBe('POST');
    expect(request!.contentType).toBe('application/json');
    expect(JSON.parse(request!.data!)).toEqual({});
  });

  it('reports an unreadable view as invalid_response', async () => {
    const { api } = apiReplying({ status: 200, body: { ticket: { id: 42, linkState: 'weird' } } });
    expect(await api.getTicketView(42)).toEqual({ ok: false, error: { kind: 'invalid_response' } });
  });

  it('defaults the optional parts of a sparse view', async () => {
    const { api } = apiReplying({ status: 200, body: { ticket: { id: '42', linkState: 'none' } } });
    const result = await api.getTicketView(42);
    expect(result.ok && result.value).toMatchObject({
      ticket: { id: 42, linkState: 'none', incidentId: null, threat: null, fieldIds: {} },
      incident: null,
      snapshots: [],
      takedownAttempts: null,
      usage: null,
      sync: { lastEventAppliedAt: null, pendingForwards: 0, failedForwards: [] },
      unavailable: [],
    });
  });

  it.each([
    [{ status: 403, body: { error: { code: 'no_credits' } } }, { kind: 'no_credits' }],
    [{ status: 403, body: { error: { code: 'read_only' } } }, { kind: 'read_only' }],
    // read as the code the connector gave, never relabelled by the status
    [{ status: 403, body: { error: { code: 'forbidden' } } }, { kind: 'forbidden' }],
    [{ status: 403, body: { error: { code: 'author_mismatch' } } }, { kind: 'forbidden' }],
    [
      { status: 409, body: { error: { code: 'not_awaiting_approval' } } },
      { kind: 'not_awaiting_approval' },
    ],
    [{ status: 409, body: { error: { code: 'not_linked' } } }, { kind: 'conflict' }],
    [
      { status: 503, body: { error: { retryAfterSeconds: 30 } } },
      { kind: 'retry_later', cause: 'unavailable', retryAfterSeconds: 30 },
    ],
    [{ status: 401, body: {} }, { kind: 'auth' }],
    ['network', { kind: 'network' }],
  ] as const)('maps approve failure %j to %j', async (reply, error) => {
    const { api } = apiReplying(reply as FakeReply);
    expect(await api.approveTakedown(42)).toEqual({ ok: false, error });
  });

  it('does not call a generic 403 a credits problem outside approve', async () => {
    const { api } = apiReplying({ status: 403, body: {} });
    expect(await api.incidentAction(42, 'safe')).toEqual({
      ok: false,
      error: { kind: 'forbidden' },
    });
  });
});

describe('toConnectorError', () => {
  it.each([
    [{ status: 0 }, { kind: 'network' }],
    [undefined, { kind: 'network' }],
    [{ status: 401 }, { kind: 'auth' }],
    [{ status: 403, responseJSON: { error: { code: 'no_credits' } } }, { kind: 'no_credits' }],
    [{ status: 403 }, { kind: 'forbidden' }],
    [{ status: 404 }, { kind: 'not_found' }],
    [
      { status: 409, responseText: '{"error":{"code":"not_awaiting_approval"}}' },
      { kind: 'not_awaiting_approval' },
    ],
    [{ status: 409 }, { kind: 'conflict' }],
    [{ status: 412 }, { kind: 'not_configured' }],
    [
      { status: 412, responseJSON: { error: { code: 'reauthorization_required' } } },
      { kind: 'reauthorization_required' },
    ],
    [
      { status: 503, headers: { 'retry-after': '5' } },
      { kind: 'retry_later', cause: 'unavailable', retryAfterSeconds: 5 },
    ],
    [
      { status: 429, headers: { 'retry-after': '12' } },
      { kind: 'retry_later', cause: 'rate_limited', retryAfterSeconds: 12 },
    ],
    [
      { status: 503, headers: { 'retry-after': '-1' } },
      { kind: 'retry_later', cause: 'unavailable', retryAfterSeconds: undefined },
    ],
    [{ status: 502 }, { kind: 'retry_later', cause: 'unavailable', retryAfterSeconds: undefined }],
    [{ status: 500 }, { kind: 'http', status: 500 }],
  ])('maps %j', (response, error) => {
    expect(toConnectorError(response)).toEqual(error);
  });
});

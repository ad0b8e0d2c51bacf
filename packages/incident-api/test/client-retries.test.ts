import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  APIUserAbortError,
  InvalidParameterError,
  TemporarilyUnavailableError,
  OPERATIONS,
  isRetryable,
  type Operation,
  type IncidentClientOptions,
} from '../src';
import { detailedIncidentSparse } from './support/fixtures';
import { startStubServer, type StubServer } from './support/stub-server';

let stub: StubServer;
let sleeps: number[];

beforeAll(async () => {
  stub = await startStubServer();
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.reset();
  sleeps = [];
});

/** A client whose waits are recorded, not slept. */
const retryingClient = (retry: IncidentClientOptions['retry'] = {}) =>
  stub.client({
    retry,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });

const incidentOk = { status: 200, json: { message: 'success', data: detailedIncidentSparse } };

describe('retries on reads', () => {
  it('retries a 503 after the Retry-After seconds the service asked for', async () => {
    stub.enqueue(
      { status: 503, headers: { 'retry-after': '2' }, json: { message: 'busy' } },
      incidentOk,
    );
    const incident = await retryingClient().incidents.retrieve('inc_abc123');
    expect(incident.id).toBe('inc_abc123');
    expect(stub.requests).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
  });

  it('retries 429 and 502 as well, then gives up after maxRetries with the last error', async () => {
    stub.enqueue(
      { status: 429, headers: { 'retry-after': '1' }, json: { message: 'slow down' } },
      { status: 502, json: { message: 'gateway' } },
      { status: 503, json: { message: 'still down' } },
    );
    const error = await retryingClient({ maxRetries: 2, initialDelayMs: 100 })
      .incidents.retrieve('inc_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemporarilyUnavailableError);
    expect((error as Error).message).toContain('still down');
    expect(stub.requests).toHaveLength(3);
    expect(sleeps[0]).toBe(1000);
    // no Retry-After on the 502: exponential backoff with jitter (second retry: 200 ms, minus up to 25 %)
    expect(sleeps[1]).toBeGreaterThanOrEqual(150);
    expect(sleeps[1]).toBeLessThanOrEqual(200);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs: the 503 surfaces at once', async () => {
    stub.enqueue({ status: 503, headers: { 'retry-after': '3600' } }, incidentOk);
    await expect(
      retryingClient({ maxRetryAfterMs: 5_000 }).incidents.retrieve('inc_1'),
    ).rejects.toBeInstanceOf(TemporarilyUnavailableError);
    expect(sleeps).toEqual([]);
    expect(stub.requests).toHaveLength(1);
  });

  it('does not retry a 400', async () => {
    stub.enqueue({ status: 400, json: { message: 'bad limit' } });
    await expect(retryingClient().resolutions.listPage({ limit: 5 })).rejects.toBeInstanceOf(
      InvalidParameterError,
    );
    expect(stub.requests).toHaveLength(1);
  });

  it('retries a resolutions 404 (an incident on the page was not found), not an incident 404', async () => {
    stub.enqueue(
      { status: 404, json: { message: 'incident on page not found' } },
      {
        status: 200,
        json: { message: 'success', data: [], paging: { next: null, limit: 5, count: 0 } },
      },
    );
    await retryingClient().resolutions.listPage({ limit: 5 });
    expect(stub.requests).toHaveLength(2);

    stub.reset();
    stub.enqueue({ status: 404, json: { message: 'not found' } });
    await expect(retryingClient().incidents.retrieve('inc_1')).rejects.toThrow('not found');
    expect(stub.requests).toHaveLength(1);
  });

  it('retries a read after a dropped connection and after a timeout', async () => {
    stub.enqueue({ destroy: true }, { delayMs: 300, json: {} }, incidentOk);
    const client = stub.client({ retry: { maxRetries: 2 }, timeoutMs: 100, sleep: async () => {} });
    const incident = await client.incidents.retrieve('inc_abc123');
    expect(incident.id).toBe('inc_abc123');
    expect(stub.requests).toHaveLength(3);
  });

  it('lets a single call turn retries off with maxRetries: 0', async () => {
    stub.enqueue({ status: 503 }, incidentOk);
    await expect(
      retryingClient().incidents.retrieve('inc_1', { maxRetries: 0 }),
    ).rejects.toBeInstanceOf(TemporarilyUnavailableError);
    expect(stub.requests).toHaveLength(1);
  });

  it('stops retrying when the caller aborts during the wait', async () => {
    stub.enqueue({ status: 503, headers: { 'retry-after': '30' } });
    const controller = new AbortController();
    const client = stub.client({
      retry: {},
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason));
          controller.abort();
        }),
    });
    await expect(
      client.incidents.retrieve('inc_1', { signal: controller.signal }),
    ).rejects.toBeInstanceOf(APIUserAbortError);
    expect(stub.requests).toHaveLength(1);
  });

  it("ends every call when the client's own signal fires, waits included", async () => {
    stub.enqueue({ status: 503, headers: { 'retry-after': '30' } });
    const controller = new AbortController();
    const client = stub.client({
      retry: {},
      signal: controller.signal,
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason));
          controller.abort();
        }),
    });
    await expect(client.incidents.retrieve('inc_1')).rejects.toBeInstanceOf(APIUserAbortError);
    // later calls end before they are sent
    await expect(client.incidents.retrieve('inc_2')).rejects.toBeInstanceOf(APIUserAbortError);
    expect(stub.requests).toHaveLength(1);
  });
});

describe('no automatic retry of reports and other non-idempotent posts', () => {
  it.each([503, 502, 429])('sends a takedown report once when answered %i', async (status) => {
    stub.enqueue(
      { status, headers: { 'retry-after': '1' }, json: { message: 'later' } },
      { status: 200, json: { message: 'ok', id: 'inc_2' } },
    );
    await expect(
      retryingClient({ maxRetries: 5 }).incidents.reportTakedown(
        { url: 'bad.example' },
        { maxRetries: 5 },
      ),
    ).rejects.toMatchObject({ status });
    expect(stub.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('sends a monitoring report once when the connection drops', async () => {
    stub.enqueue({ destroy: true }, { status: 200, json: { message: 'ok', id: 'inc_2' } });
    await expect(
      retryingClient().incidents.reportMonitoring({
        incidentType: 'email',
        subject: 'x@bad.example',
      }),
    ).rejects.toThrow('connection');
    expect(stub.requests).toHaveLength(1);
  });

  it('sends a comment once when answered 503', async () => {
    stub.enqueue({ status: 503 }, { status: 200, json: {} });
    await expect(
      retryingClient().incidents.comment('inc_1', { comment: 'hello' }),
    ).rejects.toBeInstanceOf(TemporarilyUnavailableError);
    expect(stub.requests).toHaveLength(1);
  });

  it('retries approve-takedown on 503 ("retry later") but not on 502 or a dropped connection', async () => {
    stub.enqueue(
      { status: 503, headers: { 'retry-after': '1' } },
      { status: 200, json: { message: 'ok', id: 'inc_1' } },
    );
    await expect(
      retryingClient().incidents.approveTakedown('inc_1', { author: 'Ana' }),
    ).resolves.toMatchObject({ id: 'inc_1' });
    expect(stub.requests).toHaveLength(2);

    stub.reset();
    stub.enqueue({ status: 502 }, { status: 200, json: { message: 'ok', id: 'inc_1' } });
    await expect(
      retryingClient().incidents.approveTakedown('inc_1', { author: 'Ana' }),
    ).rejects.toBeInstanceOf(TemporarilyUnavailableError);
    expect(stub.requests).toHaveLength(1);
  });
});

describe('retry classes', () => {
  const operations = Object.keys(OPERATIONS) as Operation[];
  const outcomes = [
    { kind: 'status', status: 429 },
    { kind: 'status', status: 502 },
    { kind: 'status', status: 503 },
    { kind: 'connection' },
    { kind: 'timeout' },
  ] as const;

  it.each([
    'incidents.reportTakedown',
    'incidents.reportMonitoring',
    'incidents.comment',
    'incidents.attach',
  ] as const)('%s is never retryable, whatever happened', (operation) => {
    for (const outcome of outcomes) expect(isRetryable(operation, outcome)).toBe(false);
  });

  it('retries every read on 429, 502, 503, connection errors and timeouts, never on 400 or 500', () => {
    const reads = operations.filter((op) => OPERATIONS[op] === 'read');
    expect(reads).toContain('incidents.list');
    for (const operation of reads) {
      for (const outcome of outcomes) expect(isRetryable(operation, outcome)).toBe(true);
      expect(isRetryable(operation, { kind: 'status', status: 400 })).toBe(false);
      expect(isRetryable(operation, { kind: 'status', status: 500 })).toBe(false);
      expect(isRetryable(operation, { kind: 'aborted' })).toBe(false);
    }
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sleep } from '@incident-desk/client-core';
import {
  ZendeskAbortError,
  ZendeskConnectionError,
  ZendeskRateLimitedError,
  ZendeskServerError,
  ZendeskTimeoutError,
  ZendeskUnauthorizedError,
} from '../src';
import { clientFor } from './support/client-fixture';
import { FakeZendesk } from './support/fake-zendesk';

const ticketReply = { json: { ticket: { id: 1 } } };
const invalidToken = {
  status: 401,
  json: {
    error: 'invalid_token',
    error_description: 'The access token provided is expired, revoked, malformed or invalid',
  },
};

let fake: FakeZendesk;
beforeEach(async () => {
  fake = await FakeZendesk.start();
});
afterEach(async () => {
  expect(fake.unexpected).toEqual([]);
  await fake.close();
});

describe('401 handling', () => {
  it('refreshes once with the rejected token and retries with the new one', async () => {
    fake.on('GET', '/api/v2/tickets/1.json', invalidToken, ticketReply);
    const { client, tokens } = clientFor(fake);

    await expect(client.tickets.show(1)).resolves.toMatchObject({ id: 1 });

    expect(tokens.refreshAfterUnauthorized).toHaveBeenCalledTimes(1);
    expect(tokens.refreshAfterUnauthorized).toHaveBeenCalledWith('token-1');
    expect(fake.requests.map((request) => request.headers.authorization)).toEqual([
      'Bearer token-1',
      'Bearer token-2',
    ]);
  });

  it('fails with ZendeskUnauthorizedError on a second 401 without refreshing again', async () => {
    fake.on('GET', '/api/v2/tickets/1.json', invalidToken);
    const { client, tokens } = clientFor(fake);

    const error = await client.tickets.show(1).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ZendeskUnauthorizedError);
    expect(error).toMatchObject({
      status: 401,
      code: 'unauthorized',
      error: 'invalid_token',
      isInvalidToken: true,
    });
    expect((error as ZendeskUnauthorizedError).description).toMatch(/expired, revoked/);
    expect(tokens.refreshAfterUnauthorized).toHaveBeenCalledTimes(1);
    expect(fake.requests).toHaveLength(2);
  });

  it('refreshes and retries a POST create too: a 401 means nothing was created', async () => {
    fake.on('POST', '/api/v2/tickets.json', invalidToken, {
      status: 201,
      json: { ticket: { id: 9 } },
    });
    const { client } = clientFor(fake);
    await expect(
      client.tickets.create({ subject: 's', comment: { body: 'b' } }),
    ).resolves.toMatchObject({
      ticket: { id: 9 },
    });
    expect(fake.requests).toHaveLength(2);
  });

  it('propagates the provider error when the refresh itself fails', async () => {
    fake.on('GET', '/api/v2/tickets/1.json', invalidToken);
    const { client, tokens } = clientFor(fake);
    const reauthorize = new Error('re-authorisation required');
    tokens.refreshAfterUnauthorized.mockRejectedValueOnce(reauthorize);

    await expect(client.tickets.show(1)).rejects.toBe(reauthorize);
    expect(fake.requests).toHaveLength(1);
  });

  it('sends no token and asks for no refresh on a 401 from a foreign attachment host', async () => {
    const storage = await FakeZendesk.start();
    try {
      storage.on('GET', '/file/1', { status: 401, json: { error: 'Unauthorized' } });
      const { client, tokens } = clientFor(fake, { attachmentSources: { hosts: [storage.url] } });
      await expect(
        client.attachments.download(`${storage.url}/file/1`, { maxBytes: 10 }),
      ).rejects.toBeInstanceOf(ZendeskUnauthorizedError);
      expect(tokens.refreshAfterUnauthorized).not.toHaveBeenCalled();
      expect(tokens.getAccessToken).not.toHaveBeenCalled();
      expect(storage.requests).toHaveLength(1);
    } finally {
      await storage.close();
    }
  });

  it('refreshes once per call, not once per client', async () => {
    fake.on('GET', '/api/v2/tickets/1.json', invalidToken, ticketReply, invalidToken, ticketReply);
    const { client, tokens } = clientFor(fake);
    await client.tickets.show(1);
    await client.tickets.show(1);
    expect(tokens.refreshAfterUnauthorized).toHaveBeenCalledTimes(2);
    expect(tokens.refreshAfterUnauthorized).toHaveBeenLastCalledWith('token-2');
  });
});

describe('429 handling', () => {
  it('waits for Retry-After and retries', async () => {
    fake.on(
      'GET',
      '/api/v2/tickets/1.json',
      { status: 429, headers: { 'retry-after': '2' }, json: {} },
      ticketReply,
    );
    const { client, delays } = clientFor(fake);

    await expect(client.tickets.show(1)).resolves.toMatchObject({ id: 1 });

    expect(delays).toEqual([2000]);
    expect(fake.requests).toHaveLength(2);
  });

  it("stops waiting out a Retry-After as soon as the caller's signal aborts", async () => {
    fake.on(
      'GET',
      '/api/v2/tickets/1.json',
      { status: 429, headers: { 'retry-after': '30' }, json: {} },
      ticketReply,
    );
    const controller = new AbortController();
    // the real wait, with the caller's signal firing once it has begun
    const { client } = clientFor(fake, {
      sleep: (ms, signal) => {
        const waiting = sleep(ms, signal);
        controller.abort();
        return waiting;
      },
    });
    const call = client.tickets.show(1, { signal: controller.signal });
    // ended by the signal, not asked again: waited out, the call would have been answered
    await expect(call).rejects.toBeInstanceOf(ZendeskAbortError);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a rate-limited POST create: Zendesk did not process it', async () => {
    fake.on(
      'POST',
      '/api/v2/tickets.json',
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 201, json: { ticket: { id: 3 } } },
    );
    const { client, delays } = clientFor(fake);
    await expect(
      client.tickets.create({ subject: 's', comment: { body: 'b' } }),
    ).resolves.toBeTruthy();
    expect(delays).toEqual([1000]);
  });

  it('gives up after maxRetries with ZendeskRateLimitedError carrying retryAfterSeconds', async () => {
    fake.on('GET', '/api/v2/tickets/1.json', {
      status: 429,
      headers: { 'retry-after': '3', 'x-request-id': 'req-429' },
      json: {},
    });
    const { client, delays } = clientFor(fake, { retry: { maxRetries: 2 } });

    const error = await client.tickets.show(1).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ZendeskRateLimitedError);
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      retryAfterSeconds: 3,
      requestId: 'req-429',
    });
    expect(delays).toEqual([3000, 3000]);
    expect(fake.requests).toHaveLength(3);
  });

  it('does not wait for a Retry-After beyond the cap and fails at once', async () => {
    fake.on('GET', '/api/v2/tickets/1.json', {
      status: 429,
      headers: { 'retry-after': '600' },
      json: {},
    });
    const { client, delays } = clientFor(fake, { retry: { maxRetryAfterMs: 60_000 } });

    await expect(client.tickets.show(1)).rejects.toMatchObject({ retryAfterSeconds: 600 });
    expect(delays).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it('fails a 429 at once for a call that reschedules itself, and still retries its 5xx', async () => {
    fake.on(
      'PUT',
      '/api/v2/tickets/1.json',
      { status: 503, json: {} },
      { status: 429, headers: { 'retry-after': '7' }, json: {} },
      { status: 200, json: { ticket: { id: 1 } } },
    );
    const { client, delays } = clientFor(fake, { retry: { maxRetries: 2, initialDelayMs: 10 } });

    const error = await client.tickets
      .update(1, { status: 'open' }, { retryRateLimited: false })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ZendeskRateLimitedError);
    expect(error).toMatchObject({ retryAfterSeconds: 7 });
    expect(delays).toHaveLength(1); // the 503's backoff only, never the Retry-After
    expect(fake.requests).toHaveLength(2);
  });

  it('fails every 429 at once for a client configured so, unless a call asks to wait', async () => {
    fake.on(
      'GET',
      '/api/v2/tickets/1.json',
      { status: 429, headers: { 'retry-after': '1' }, json: {} },
      { status: 429, headers: { 'retry-after': '1' }, json: {} },
      ticketReply,
    );
    const { client, delays } = clientFor(fake, { retry: { retryRateLimited: false } });

    await expect(client.tickets.show(1)).rejects.toBeInstanceOf(ZendeskRateLimitedError);
    expect(delays).toEqual([]);
    await expect(client.tickets.show(1, { retryRateLimited: true })).resolves.toMatchObject({
      id: 1,
    });
    expect(delays).toEqual([1000]);
    expect(fake.requests).toHaveLength(3);
  });

  it('backs off exponentially when 429 carries no Retry-After', async () => {
    fake.on(
      'GET',
      '/api/v2/tickets/1.json',
      { status: 429, json: {} },
      { status: 429, json: {} },
      ticketReply,
    );
    const { client, delays } = clientFor(fake, { retry: { initialDelayMs: 100 } });
    await client.tickets.show(1);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThanOrEqual(75);
    expect(delays[0]).toBeLessThanOrEqual(100);
    expect(delays[1]).toBeGreaterThanOrEqual(150);
    expect(delays[1]).toBeLessThanOrEqual(200);
  });
});

describe('5xx and connection errors', () => {
  it('retries an idempotent GET on 503', async () => {
    fake.on('GET', '/api/v2/tickets/1.json', { status: 503, json: {} }, ticketReply);
    const { client } = clientFor(fake);
    await expect(client.tickets.show(1)).resolves.toMatchObject({ id: 1 });
    expect(fake.requests).toHaveLength(2);
  });

  it('retries a PUT on 500 and fails with ZendeskServerError when retries run out', async () => {
    fake.on('PUT', '/api/v2/tickets/1.json', { status: 500, json: { error: 'InternalError' } });
    const { client } = clientFor(fake, { retry: { maxRetries: 1 } });
    await expect(client.tickets.update(1, { status: 'open' })).rejects.toBeInstanceOf(
      ZendeskServerError,
    );
    expect(fake.requests).toHaveLength(2);
  });

  it('never retries a POST create on 5xx', async () => {
    fake.on(
      'POST',
      '/api/v2/tickets.json',
      { status: 502, json: {} },
      { status: 201, json: { ticket: { id: 1 } } },
    );
    const { client } = clientFor(fake);
    await expect(
      client.tickets.create({ subject: 's', comment: { body: 'b' } }),
    ).rejects.toMatchObject({ status: 502 });
    expect(fake.requests).toHaveLength(1);
  });

  it('never retries an upload on 5xx', async () => {
    fake.on(
      'POST',
      '/api/v2/uploads.json',
      { status: 500, json: {} },
      { status: 201, json: { upload: { token: 't' } } },
    );
    const { client } = clientFor(fake);
    await expect(
      client.uploads.create({ filename: 'a.txt', data: Buffer.from('x') }),
    ).rejects.toBeInstanceOf(ZendeskServerError);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a POST when configured with retryNonIdempotent', async () => {
    fake.on(
      'POST',
      '/api/v2/tickets.json',
      { status: 500, json: {} },
      { status: 201, json: { ticket: { id: 1 } } },
    );
    const { client } = clientFor(fake, { retry: { retryNonIdempotent: true } });
    await expect(
      client.tickets.create({ subject: 's', comment: { body: 'b' } }),
    ).resolves.toBeTruthy();
    expect(fake.requests).toHaveLength(2);
  });

  it('retries a POST create that carries an idempotency key', async () => {
    fake.on(
      'POST',
      '/api/v2/tickets.json',
      { status: 503, json: {} },
      { status: 201, json: { ticket: { id: 1 } } },
    );
    const { client } = clientFor(fake);
    await client.tickets.create(
      { subject: 's', comment: { body: 'b' } },
      { idempotencyKey: 'k-1' },
    );
    expect(fake.requests.map((request) => request.headers['idempotency-key'])).toEqual([
      'k-1',
      'k-1',
    ]);
  });

  it('does not retry a PUT the caller marks as not idempotent', async () => {
    fake.on(
      'PUT',
      '/api/v2/tickets/1.json',
      { status: 503, json: {} },
      { json: { ticket: { id: 1 } } },
    );
    const { client } = clientFor(fake);
    await expect(
      client.tickets.update(1, { comment: { body: 'note', public: false } }, { idempotent: false }),
    ).rejects.toBeInstanceOf(ZendeskServerError);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a GET after a dropped connection, then reports ZendeskConnectionError', async () => {
    fake.on('GET', '/api/v2/tickets/1.json', { destroy: true });
    const { client } = clientFor(fake, { retry: { maxRetries: 2 } });
    const error = await client.tickets.show(1).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ZendeskConnectionError);
    expect(error).not.toBeInstanceOf(ZendeskTimeoutError);
    expect((error as Error).cause).toBeDefined();
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a POST create after a dropped connection', async () => {
    fake.on('POST', '/api/v2/tickets.json', { destroy: true });
    const { client } = clientFor(fake);
    await expect(
      client.tickets.create({ subject: 's', comment: { body: 'b' } }),
    ).rejects.toBeInstanceOf(ZendeskConnectionError);
    expect(fake.requests).toHaveLength(1);
  });

  it('reports ZendeskConnectionError when nothing listens', async () => {
    const closed = await FakeZendesk.start();
    const { client } = clientFor(closed, { retry: false });
    await closed.close();
    await expect(client.users.me()).rejects.toBeInstanceOf(ZendeskConnectionError);
  });
});

describe('timeouts and aborts', () => {
  it('fails with ZendeskTimeoutError when an attempt exceeds timeoutMs', async () => {
    fake.on('GET', '/api/v2/tickets/1.json', { ...ticketReply, delayMs: 300 });
    const { client } = clientFor(fake, { timeoutMs: 50, retry: false });
    await expect(client.tickets.show(1)).rejects.toBeInstanceOf(ZendeskTimeoutError);
  });

  it('fails with ZendeskAbortError and no retry when the caller aborts', async () => {
    const controller = new AbortController();
    fake.on('GET', '/api/v2/tickets/1.json', () => {
      controller.abort();
      return { ...ticketReply, delayMs: 300 };
    });
    const { client } = clientFor(fake);
    await expect(client.tickets.show(1, { signal: controller.signal })).rejects.toBeInstanceOf(
      ZendeskAbortError,
    );
    expect(fake.requests).toHaveLength(1);
  });

  it("ends every call when the client's own signal fires (a job that outran its timeout)", async () => {
    const controller = new AbortController();
    fake.on('GET', '/api/v2/tickets/1.json', () => {
      controller.abort();
      return { ...ticketReply, delayMs: 300 };
    });
    const { client } = clientFor(fake, { signal: controller.signal });
    await expect(client.tickets.show(1)).rejects.toBeInstanceOf(ZendeskAbortError);
    // later calls end before they are sent
    await expect(client.users.me()).rejects.toBeInstanceOf(ZendeskAbortError);
    expect(fake.requests).toHaveLength(1);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ZendeskApiError,
  ZendeskBadRequestError,
  ZendeskConflictError,
  ZendeskForbiddenError,
  ZendeskRecordInvalidError,
  ZendeskRecordNotFoundError,
} from '../src';
import { clientFor } from './support/client-fixture';
import { FakeZendesk } from './support/fake-zendesk';

let fake: FakeZendesk;
beforeEach(async () => {
  fake = await FakeZendesk.start();
});
afterEach(async () => {
  expect(fake.unexpected).toEqual([]);
  await fake.close();
});

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

describe('typed errors', () => {
  it('404 RecordNotFound with description and request id', async () => {
    fake.on('GET', '/api/v2/tickets/404.json', {
      status: 404,
      headers: { 'x-request-id': 'req-404' },
      json: { error: 'RecordNotFound', description: 'Not found' },
    });
    const error = await failureOf(clientFor(fake).client.tickets.show(404));
    expect(error).toBeInstanceOf(ZendeskRecordNotFoundError);
    expect(error).toBeInstanceOf(ZendeskApiError);
    expect(error).toMatchObject({
      name: 'ZendeskRecordNotFoundError',
      status: 404,
      code: 'record_not_found',
      error: 'RecordNotFound',
      description: 'Not found',
      requestId: 'req-404',
      method: 'GET',
      path: '/api/v2/tickets/404.json',
    });
    expect((error as Error).message).toBe(
      '404 RecordNotFound: Not found (GET /api/v2/tickets/404.json) [request id req-404]',
    );
  });

  it('422 RecordInvalid exposes the per-field details', async () => {
    const details = {
      base: [{ description: 'Status: closed prevents ticket update', error: 'ClosedTicket' }],
    };
    fake.on('PUT', '/api/v2/tickets/9.json', {
      status: 422,
      json: { error: 'RecordInvalid', description: 'Record validation errors', details },
    });
    const error = await failureOf(clientFor(fake).client.tickets.update(9, { status: 'open' }));
    expect(error).toBeInstanceOf(ZendeskRecordInvalidError);
    expect(error).toMatchObject({ status: 422, code: 'record_invalid', error: 'RecordInvalid' });
    expect((error as ZendeskRecordInvalidError).details).toEqual(details);
    expect((error as ZendeskRecordInvalidError).fieldErrors.base?.[0]?.error).toBe('ClosedTicket');
    // the message says what to fix, not only "Record validation errors"
    expect((error as Error).message).toBe(
      '422 RecordInvalid: Record validation errors: Status: closed prevents ticket update (PUT /api/v2/tickets/9.json)',
    );
  });

  it('400 and 409 have their own classes', async () => {
    fake.on('PUT', '/api/v2/tickets/1.json', {
      status: 409,
      json: { error: 'UpdateConflict', description: 'stale' },
    });
    fake.on('GET', '/api/v2/search.json', {
      status: 400,
      json: { error: 'unavailable', description: 'bad query' },
    });
    const { client } = clientFor(fake);
    await expect(
      client.tickets.update(1, { status: 'open', safe_update: true, updated_stamp: 'x' }),
    ).rejects.toBeInstanceOf(ZendeskConflictError);
    await expect(client.search.query('type:ticket')).rejects.toBeInstanceOf(ZendeskBadRequestError);
    expect(fake.requests).toHaveLength(2);
  });

  it('reads the webhooks API error envelope', async () => {
    fake.on('POST', '/api/v2/webhooks', {
      status: 400,
      json: {
        errors: [{ code: 'InvalidEndpoint', title: 'Invalid endpoint', detail: 'must be https' }],
      },
    });
    const error = await failureOf(
      clientFor(fake).client.webhooks.create({
        name: 'n',
        endpoint: 'http://connector.local/ticketing/webhook',
        http_method: 'POST',
        request_format: 'json',
        status: 'active',
        subscriptions: ['conditional_ticket_events'],
      }),
    );
    expect(error).toMatchObject({
      status: 400,
      error: 'InvalidEndpoint',
      description: 'must be https',
    });
  });

  it('keeps a non-JSON error body as text', async () => {
    fake.on('GET', '/api/v2/tickets/1.json', {
      status: 418,
      body: 'teapot',
      headers: { 'content-type': 'text/plain' },
    });
    const error = await failureOf(clientFor(fake).client.tickets.show(1));
    expect(error).toBeInstanceOf(ZendeskApiError);
    expect(error).toMatchObject({
      status: 418,
      code: 'unexpected_status',
      body: 'teapot',
      error: undefined,
    });
  });
});

describe('403 and missing scopes', () => {
  it('takes the missing scope from the body', async () => {
    fake.on('GET', '/api/v2/tickets/1.json', {
      status: 403,
      json: {
        error: 'Forbidden',
        description: 'The token does not have the required scope tickets:read',
      },
    });
    const error = await failureOf(clientFor(fake).client.tickets.show(1));
    expect(error).toBeInstanceOf(ZendeskForbiddenError);
    expect(error).toMatchObject({ status: 403, code: 'forbidden', missingScope: 'tickets:read' });
    expect((error as Error).message).toMatch(/missing scope: tickets:read/);
  });

  it('takes the missing scope from WWW-Authenticate', async () => {
    fake.on('GET', '/api/v2/triggers.json', {
      status: 403,
      headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="triggers:read"' },
      json: { error: 'Forbidden' },
    });
    const error = await failureOf(
      clientFor(fake)
        .client.triggers.list()
        .then((page) => page),
    );
    expect(error).toMatchObject({ missingScope: 'triggers:read' });
  });

  it('names users:read for a bare 403 on users/me', async () => {
    fake.on('GET', '/api/v2/users/me.json', {
      status: 403,
      json: { error: 'Forbidden', description: 'You do not have access' },
    });
    const error = await failureOf(clientFor(fake).client.users.me());
    expect(error).toMatchObject({ missingScope: 'users:read' });
  });

  it('names no scope when neither the body nor the call does', async () => {
    fake.on('GET', '/api/v2/tickets/1.json', {
      status: 403,
      json: { error: 'Forbidden', description: 'You do not have access' },
    });
    const error = await failureOf(clientFor(fake).client.tickets.show(1));
    expect(error).toBeInstanceOf(ZendeskForbiddenError);
    expect((error as ZendeskForbiddenError).missingScope).toBeUndefined();
  });

  it('does not retry a 403', async () => {
    fake.on('GET', '/api/v2/users/me.json', { status: 403, json: {} });
    await failureOf(clientFor(fake).client.users.me());
    expect(fake.requests).toHaveLength(1);
  });
});

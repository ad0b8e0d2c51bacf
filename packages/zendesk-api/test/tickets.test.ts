import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ZendeskClient,
  ZendeskRequestValidationError,
  ZendeskResponseValidationError,
  type TTicketUpdateInput,
} from '../src';
import { clientFor } from './support/client-fixture';
import { FakeZendesk } from './support/fake-zendesk';

const ticket = {
  id: 42,
  subject: 'Phishing site',
  status: 'open',
  requester_id: 7,
  assignee_id: null,
  group_id: 3,
  tags: ['incident_submit'],
  custom_fields: [{ id: 100, value: 'https://evil.example' }],
  updated_at: '2026-11-21T10:00:00Z',
  brand_new_zendesk_key: { anything: true },
};

let fake: FakeZendesk;
beforeEach(async () => {
  fake = await FakeZendesk.start();
});
afterEach(async () => {
  expect(fake.unexpected).toEqual([]);
  await fake.close();
});

describe('tickets.show', () => {
  it('GETs the ticket with the bearer token and parses it, keeping unknown keys', async () => {
    fake.on('GET', '/api/v2/tickets/42.json', { json: { ticket } });
    const { client } = clientFor(fake);

    const shown = await client.tickets.show(42);

    expect(shown.id).toBe(42);
    expect(shown.custom_fields).toEqual([{ id: 100, value: 'https://evil.example' }]);
    expect((shown as Record<string, unknown>).brand_new_zendesk_key).toEqual({ anything: true });
    const [request] = fake.requests;
    expect(request?.headers.authorization).toBe('Bearer token-1');
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers['user-agent']).toBe('incident-desk-zendesk-api/0.1.0');
    expect(request?.body.length).toBe(0);
  });

  it('defaults missing tags and custom_fields to empty lists', async () => {
    fake.on('GET', '/api/v2/tickets/5.json', { json: { ticket: { id: 5 } } });
    const { client } = clientFor(fake);
    const shown = await client.tickets.show(5);
    expect(shown.tags).toEqual([]);
    expect(shown.custom_fields).toEqual([]);
  });

  it('rejects a 200 whose body is not a ticket with ZendeskResponseValidationError', async () => {
    fake.on('GET', '/api/v2/tickets/6.json', {
      json: { ticket: { subject: 'no id' } },
      headers: { 'x-request-id': 'r-6' },
    });
    const { client } = clientFor(fake);
    const error = await client.tickets.show(6).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ZendeskResponseValidationError);
    expect(error).toMatchObject({ status: 200, requestId: 'r-6' });
  });

  it('sends the marketplace headers, extra headers and a custom user agent on every request', async () => {
    fake.on('GET', '/api/v2/tickets/42.json', { json: { ticket } });
    const { client } = clientFor(fake, {
      marketplace: { name: 'incident-desk', organizationId: 123, appId: 'app-9' },
      headers: { 'x-sandbox-account': 'acme', authorization: 'Basic must-not-win' },
      userAgent: 'incident-desk-connector/1.0',
    });

    await client.tickets.show(42);
    await client.tickets.show(42);

    expect(fake.requests).toHaveLength(2);
    for (const request of fake.requests) {
      expect(request.headers['x-zendesk-marketplace-name']).toBe('incident-desk');
      expect(request.headers['x-zendesk-marketplace-organization-id']).toBe('123');
      expect(request.headers['x-zendesk-marketplace-app-id']).toBe('app-9');
      expect(request.headers['x-sandbox-account']).toBe('acme');
      expect(request.headers['user-agent']).toBe('incident-desk-connector/1.0');
      expect(request.headers.authorization).toBe('Bearer token-1');
    }
  });

  it('sends no marketplace headers when none are configured', async () => {
    fake.on('GET', '/api/v2/tickets/42.json', { json: { ticket } });
    await clientFor(fake).client.tickets.show(42);
    expect(fake.requests[0]?.headers['x-zendesk-marketplace-name']).toBeUndefined();
  });

  it('keeps a path prefix of the base URL (sandbox accounts)', async () => {
    fake.on('GET', '/accounts/acme/api/v2/tickets/42.json', { json: { ticket } });
    const { client } = clientFor(fake, { baseUrl: `${fake.url}/accounts/acme/` });
    await expect(client.tickets.show(42)).resolves.toMatchObject({ id: 42 });
  });
});

describe('tickets.update', () => {
  it('PUTs one update with note, fields, tags, status and assignment', async () => {
    fake.on('PUT', '/api/v2/tickets/42.json', {
      json: {
        ticket: { ...ticket, status: 'pending' },
        audit: { id: 900, events: [{ id: 901, type: 'Comment' }] },
      },
    });
    const { client } = clientFor(fake);
    const update: TTicketUpdateInput = {
      comment: { body: '[incident-desk] Linked', html_body: '<p>Linked</p>', public: false },
      custom_fields: [{ id: 101, value: 'inc_123' }],
      additional_tags: ['incident_linked'],
      remove_tags: ['incident_submit'],
      status: 'pending',
      assignee_id: 11,
      group_id: 3,
    };

    const result = await client.tickets.update(42, update);

    expect(result.ticket.status).toBe('pending');
    expect(result.audit?.events[0]).toMatchObject({ id: 901, type: 'Comment' });
    const [request] = fake.requests;
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.json()).toEqual({ ticket: update });
  });

  it('refuses unknown keys and empty comments without sending anything', async () => {
    const { client } = clientFor(fake);
    const withUnknownKey = {
      status: 'open',
      tags: ['replaces-all-tags'],
    } as unknown as TTicketUpdateInput;
    await expect(client.tickets.update(42, withUnknownKey)).rejects.toBeInstanceOf(
      ZendeskRequestValidationError,
    );
    await expect(client.tickets.update(42, { comment: { public: false } })).rejects.toBeInstanceOf(
      ZendeskRequestValidationError,
    );
    await expect(
      client.tickets.update(42, { status: 'reopened' as unknown as 'open' }),
    ).rejects.toBeInstanceOf(ZendeskRequestValidationError);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('tickets.create', () => {
  it('POSTs the new ticket and reads the 201', async () => {
    fake.on('POST', '/api/v2/tickets.json', {
      status: 201,
      json: { ticket: { ...ticket, id: 77 }, audit: { events: [] } },
    });
    const { client } = clientFor(fake);
    const input = {
      subject: '[tag] takedown_success - hxxps[:]//evil[.]example',
      comment: { body: '[incident-desk] opened', public: false },
      type: 'incident' as const,
      tags: ['incident_linked', 'incident_detected'],
      custom_fields: [{ id: 101, value: 'inc_1' }],
      group_id: 3,
    };

    const created = await client.tickets.create(input);

    expect(created.ticket.id).toBe(77);
    expect(fake.requests[0]?.json()).toEqual({ ticket: input });
    expect(fake.requests[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it('sends Idempotency-Key when given one', async () => {
    fake.on('POST', '/api/v2/tickets.json', { status: 201, json: { ticket } });
    await clientFor(fake).client.tickets.create(
      { subject: 's', comment: { body: 'b' } },
      { idempotencyKey: 'incident:inc_1' },
    );
    expect(fake.requests[0]?.headers['idempotency-key']).toBe('incident:inc_1');
  });
});

describe('path encoding', () => {
  it('percent-encodes every interpolated segment', async () => {
    fake.on('GET', '/api/v2/webhooks/a%2Fb%3Fc', {
      json: {
        webhook: {
          id: 'a/b?c',
          name: 'n',
          endpoint: 'https://x',
          http_method: 'POST',
          request_format: 'json',
          status: 'active',
        },
      },
    });
    const { client } = clientFor(fake);
    await expect(client.webhooks.show('a/b?c')).resolves.toMatchObject({ id: 'a/b?c' });
  });

  it('refuses dot segments that would change the endpoint', async () => {
    const { client } = clientFor(fake);
    await expect(client.webhooks.show('..')).rejects.toBeInstanceOf(ZendeskRequestValidationError);
    expect(fake.requests).toHaveLength(0);
  });
});

it('rejects a base URL that is not http(s)', () => {
  expect(
    () =>
      new ZendeskClient({
        baseUrl: 'ftp://x',
        tokenProvider: {
          getAccessToken: async () => 't',
          refreshAfterUnauthorized: async () => 't',
        },
      }),
  ).toThrow(/http or https/);
});

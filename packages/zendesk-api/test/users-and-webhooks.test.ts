import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ZendeskRequestValidationError, type TWebhookCreateInput } from '../src';
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

describe('users', () => {
  it('reads the current user and a user by id', async () => {
    fake.on('GET', '/api/v2/users/me.json', {
      json: {
        user: {
          id: 1,
          name: 'Integration',
          email: 'bot@acme.test',
          role: 'admin',
          locale: 'en-US',
        },
      },
    });
    fake.on('GET', '/api/v2/users/7.json', {
      json: { user: { id: 7, email: null, role: 'end-user' } },
    });
    const { client } = clientFor(fake);

    await expect(client.users.me()).resolves.toMatchObject({
      id: 1,
      email: 'bot@acme.test',
      role: 'admin',
    });
    await expect(client.users.show(7)).resolves.toMatchObject({ id: 7, email: null });
  });
});

describe('groups', () => {
  it('lists every group, following the cursor', async () => {
    fake.on(
      'GET',
      '/api/v2/groups.json',
      {
        json: {
          groups: [{ id: 1, name: 'Support' }],
          meta: { has_more: true, after_cursor: 'c1' },
        },
      },
      {
        json: {
          groups: [{ id: 2, name: 'Abuse desk', deleted: false }],
          meta: { has_more: false },
        },
      },
    );
    const { client } = clientFor(fake);
    const names: string[] = [];
    for await (const group of client.groups.list()) names.push(group.name);
    expect(names).toEqual(['Support', 'Abuse desk']);
    expect(fake.requests[0]?.query.get('page[size]')).toBe('100');
    expect(fake.requests[1]?.query.get('page[after]')).toBe('c1');
  });
});

const webhook = {
  id: '01HQ3NG4Y6R0ZJ3M1XE5V5T9K2',
  name: 'incident-desk',
  endpoint: 'https://connector.example/ticketing/webhook',
  http_method: 'POST',
  request_format: 'json',
  status: 'active',
  subscriptions: ['conditional_ticket_events'],
};

describe('webhooks', () => {
  it('creates a webhook', async () => {
    fake.on('POST', '/api/v2/webhooks', { status: 201, json: { webhook } });
    const { client } = clientFor(fake);
    const input: TWebhookCreateInput = {
      name: 'incident-desk',
      endpoint: 'https://connector.example/ticketing/webhook',
      http_method: 'POST',
      request_format: 'json',
      status: 'active',
      subscriptions: ['conditional_ticket_events'],
    };

    await expect(client.webhooks.create(input)).resolves.toMatchObject({ id: webhook.id });
    expect(fake.requests[0]?.json()).toEqual({ webhook: input });
  });

  it('refuses a webhook endpoint that is not a URL', async () => {
    const { client } = clientFor(fake);
    await expect(
      client.webhooks.create({
        name: 'n',
        endpoint: 'not a url',
        http_method: 'POST',
        request_format: 'json',
        status: 'active',
        subscriptions: [],
      }),
    ).rejects.toBeInstanceOf(ZendeskRequestValidationError);
    expect(fake.requests).toHaveLength(0);
  });

  it('shows a webhook, reads and resets its signing secret', async () => {
    const base = `/api/v2/webhooks/${webhook.id}`;
    fake.on('GET', base, { json: { webhook } });
    fake.on('GET', `${base}/signing_secret`, {
      json: { signing_secret: { algorithm: 'SHA256', secret: 'old-secret' } },
    });
    fake.on('POST', `${base}/signing_secret`, {
      status: 201,
      json: { signing_secret: { algorithm: 'SHA256', secret: 'new-secret' } },
    });
    const { client } = clientFor(fake);

    await expect(client.webhooks.show(webhook.id)).resolves.toMatchObject({
      name: 'incident-desk',
    });
    await expect(client.webhooks.signingSecret.show(webhook.id)).resolves.toEqual({
      algorithm: 'SHA256',
      secret: 'old-secret',
    });
    await expect(client.webhooks.signingSecret.reset(webhook.id)).resolves.toEqual({
      algorithm: 'SHA256',
      secret: 'new-secret',
    });
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET ${base}`,
      `GET ${base}/signing_secret`,
      `POST ${base}/signing_secret`,
    ]);
  });

  it('lists every webhook across cursor pages', async () => {
    const second = { ...webhook, id: '01HQ3NG4Y6R0ZJ3M1XE5V5T9K3', name: 'other' };
    fake.on('GET', '/api/v2/webhooks', (request) =>
      request.query.get('page[after]') === 'c2'
        ? { json: { webhooks: [second], meta: { has_more: false, after_cursor: null } } }
        : { json: { webhooks: [webhook], meta: { has_more: true, after_cursor: 'c2' } } },
    );
    const { client } = clientFor(fake);

    const names: string[] = [];
    for await (const item of client.webhooks.list()) names.push(item.name);
    expect(names).toEqual(['incident-desk', 'other']);
    expect(fake.requests.map((request) => request.query.get('page[size]'))).toEqual(['100', '100']);
  });

  it('patches only the given fields and deletes a webhook', async () => {
    const base = `/api/v2/webhooks/${webhook.id}`;
    fake.on('PATCH', base, { status: 204 });
    fake.on('DELETE', base, { status: 204 });
    const { client } = clientFor(fake);

    await client.webhooks.update(webhook.id, { status: 'inactive' });
    await client.webhooks.delete(webhook.id);
    expect(fake.requestsTo('PATCH', base)[0]?.json()).toEqual({ webhook: { status: 'inactive' } });
    expect(fake.requestsTo('DELETE', base)).toHaveLength(1);
    await expect(client.webhooks.update(webhook.id, { status: 'paused' as never })).rejects.toThrow(
      ZendeskRequestValidationError,
    );
  });
});

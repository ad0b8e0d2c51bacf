import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ZendeskForbiddenError, ZendeskRequestValidationError } from '../src';
import { clientFor } from './support/client-fixture';
import { FakeZendesk, type RecordedRequest } from './support/fake-zendesk';

let fake: FakeZendesk;
beforeEach(async () => {
  fake = await FakeZendesk.start();
});
afterEach(async () => {
  expect(fake.unexpected).toEqual([]);
  await fake.close();
});

const audit = (id: number, custom: Record<string, unknown>) => ({
  id,
  ticket_id: 42,
  author_id: 7,
  created_at: '2026-11-21T10:00:00Z',
  metadata: { system: { client: 'x' }, custom },
  via: { channel: 'api' },
  events: [{ id: id * 10, type: 'Comment', body: `note ${id}`, public: false }],
});

describe('tickets.audits.list', () => {
  it('walks every audit across cursor pages, with its custom metadata and comment bodies', async () => {
    fake.on('GET', '/api/v2/tickets/42/audits.json', (request: RecordedRequest) =>
      request.query.get('page[after]') === 'a2'
        ? { json: { audits: [audit(3, { ref: 'c' })], meta: { has_more: false } } }
        : {
            json: {
              audits: [audit(1, {}), audit(2, { ref: 'b' })],
              meta: { has_more: true, after_cursor: 'a2' },
            },
          },
    );
    const { client } = clientFor(fake);

    const seen: unknown[] = [];
    for await (const each of client.tickets.audits.list(42, { pageSize: 2 })) {
      seen.push([each.id, each.metadata?.custom, each.events[0]?.body]);
    }

    expect(seen).toEqual([
      [1, {}, 'note 1'],
      [2, { ref: 'b' }, 'note 2'],
      [3, { ref: 'c' }, 'note 3'],
    ]);
    expect(fake.requests.map((r) => r.query.get('page[after]'))).toEqual([null, 'a2']);
    expect(fake.requests[0]?.query.get('page[size]')).toBe('2');
  });

  it('tells a missing global read scope by ZendeskForbiddenError', async () => {
    fake.on('GET', '/api/v2/tickets/42/audits.json', {
      status: 403,
      json: { error: 'Forbidden', description: 'You do not have access to this page.' },
    });
    const { client } = clientFor(fake);
    await expect(client.tickets.audits.list(42)).rejects.toBeInstanceOf(ZendeskForbiddenError);
  });
});

describe('audit metadata on writes', () => {
  it('sends metadata on an update, a create and each update_many item', async () => {
    fake.on('PUT', '/api/v2/tickets/42.json', { json: { ticket: { id: 42 } } });
    fake.on('POST', '/api/v2/tickets.json', { status: 201, json: { ticket: { id: 43 } } });
    fake.on('PUT', '/api/v2/tickets/update_many.json', {
      json: { job_status: { id: 'j1', status: 'queued' } },
    });
    const { client } = clientFor(fake);

    await client.tickets.update(42, {
      comment: { body: 'n', public: false },
      metadata: { incident_desk: { ref: 'r' } },
    });
    await client.tickets.create({
      subject: 's',
      comment: { body: 'b' },
      metadata: { incident_desk: { events: ['e'] } },
    });
    await client.tickets.updateMany([{ id: 42, comment: { body: 'x' }, metadata: { k: 1 } }]);

    expect(fake.requests.map((r) => r.json())).toEqual([
      {
        ticket: {
          comment: { body: 'n', public: false },
          metadata: { incident_desk: { ref: 'r' } },
        },
      },
      {
        ticket: {
          subject: 's',
          comment: { body: 'b' },
          metadata: { incident_desk: { events: ['e'] } },
        },
      },
      { tickets: [{ id: 42, comment: { body: 'x' }, metadata: { k: 1 } }] },
    ]);
  });

  it('refuses metadata that is not an object before any request', async () => {
    const { client } = clientFor(fake);
    await expect(
      client.tickets.update(42, { metadata: 'ref' as unknown as Record<string, unknown> }),
    ).rejects.toBeInstanceOf(ZendeskRequestValidationError);
    expect(fake.requests).toEqual([]);
  });
});

describe('locales', () => {
  it("reads the account's default language from the locale marked default", async () => {
    fake.on('GET', '/api/v2/locales.json', {
      json: {
        locales: [
          { id: 1, locale: 'en-US', name: 'English', default: false },
          { id: 16, locale: 'fr', name: 'Français', default: true },
        ],
      },
    });
    const { client } = clientFor(fake);
    expect(await client.locales.accountDefault()).toBe('fr');
  });

  it('answers null when no locale is marked default (the field is not documented)', async () => {
    fake.on('GET', '/api/v2/locales.json', {
      json: { locales: [{ id: 1, locale: 'en-US', name: 'English' }] },
    });
    const { client } = clientFor(fake);
    expect(await client.locales.accountDefault()).toBeNull();
  });
});

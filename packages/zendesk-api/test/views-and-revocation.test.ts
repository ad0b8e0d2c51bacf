// Views: created with the conditions in top-level all/any and checked before sending, listed and
// their tickets followed across cursor pages, deleted; a refused view is Zendesk's 422. The
// client's own token revoked with DELETE oauth/tokens/current.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ZendeskRecordInvalidError, ZendeskRequestValidationError } from '../src';
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

const answered = {
  id: 360001,
  title: 'Takedowns waiting for approval',
  active: true,
  restriction: null,
  conditions: {
    all: [
      { field: 'status', operator: 'less_than', value: 'solved' },
      { field: 'custom_fields_77', operator: 'is', value: 'incident_status_approval_required' },
    ],
    any: [],
  },
  execution: {
    columns: [
      { id: 'nice_id', title: 'ID' },
      { id: 77, title: 'Incident Status' },
    ],
  },
};

describe('views', () => {
  it('creates a view with top-level all/any and output, and returns the view', async () => {
    fake.on('POST', '/api/v2/views.json', { json: { view: answered } });
    const { client } = clientFor(fake);
    const view = await client.views.create({
      title: 'Takedowns waiting for approval',
      all: [
        { field: 'status', operator: 'less_than', value: 'solved' },
        { field: 'custom_fields_77', operator: 'is', value: 'incident_status_approval_required' },
      ],
      output: { columns: ['nice_id', 77], sort_by: 'updated', sort_order: 'desc' },
    });
    expect(view).toMatchObject({ id: 360001, conditions: { any: [] } });
    expect(fake.requestsTo('POST', '/api/v2/views.json')[0]!.json()).toEqual({
      view: {
        title: 'Takedowns waiting for approval',
        all: [
          { field: 'status', operator: 'less_than', value: 'solved' },
          {
            field: 'custom_fields_77',
            operator: 'is',
            value: 'incident_status_approval_required',
          },
        ],
        output: { columns: ['nice_id', 77], sort_by: 'updated', sort_order: 'desc' },
      },
    });
  });

  it('refuses to send a view without an all condition, with unknown keys or too many columns', async () => {
    const { client } = clientFor(fake);
    await expect(client.views.create({ title: 'x', all: [] })).rejects.toBeInstanceOf(
      ZendeskRequestValidationError,
    );
    await expect(
      client.views.create({
        title: 'x',
        all: [{ field: 'status', operator: 'is', value: 'open' }],
        // @ts-expect-error the answer's shape, not the request's
        conditions: { all: [] },
      }),
    ).rejects.toBeInstanceOf(ZendeskRequestValidationError);
    await expect(
      client.views.create({
        title: 'x',
        all: [{ field: 'status', operator: 'is', value: 'open' }],
        output: { columns: Array.from({ length: 11 }, () => 'status') },
      }),
    ).rejects.toBeInstanceOf(ZendeskRequestValidationError);
    expect(fake.requests).toEqual([]);
  });

  it("reads Zendesk's 422 as a refused record", async () => {
    fake.on('POST', '/api/v2/views.json', {
      status: 422,
      json: {
        error: 'RecordInvalid',
        description: 'Record validation errors',
        details: { conditions: [{ description: 'Conditions: bad', error: 'InvalidValue' }] },
      },
    });
    const { client } = clientFor(fake);
    await expect(
      client.views.create({ title: 'x', all: [{ field: 'status', operator: 'is', value: 'x' }] }),
    ).rejects.toBeInstanceOf(ZendeskRecordInvalidError);
  });

  it('lists views and a view’s tickets across cursor pages, updates and deletes', async () => {
    fake.on(
      'GET',
      '/api/v2/views.json',
      { json: { views: [answered], meta: { has_more: true, after_cursor: 'v1' } } },
      { json: { views: [{ ...answered, id: 360002 }], meta: { has_more: false } } },
    );
    fake.on(
      'GET',
      '/api/v2/views/360001/tickets.json',
      {
        json: { tickets: [{ id: 5, status: 'open' }], meta: { has_more: true, after_cursor: 't' } },
      },
      { json: { tickets: [{ id: 9, status: 'pending' }], meta: { has_more: false } } },
    );
    fake.on('PUT', '/api/v2/views/360001.json', {
      json: { view: { ...answered, title: 'Renamed' } },
    });
    fake.on('DELETE', '/api/v2/views/360001.json', { status: 204 });
    const { client } = clientFor(fake);

    const ids: number[] = [];
    for await (const view of client.views.list({ active: true })) ids.push(view.id);
    expect(ids).toEqual([360001, 360002]);
    const [first, second] = fake.requestsTo('GET', '/api/v2/views.json');
    expect(first!.query.get('active')).toBe('true');
    expect(first!.query.get('page[size]')).toBe('100');
    expect(second!.query.get('page[after]')).toBe('v1');

    const tickets: number[] = [];
    for await (const ticket of client.views.tickets(360001)) tickets.push(ticket.id);
    expect(tickets).toEqual([5, 9]);

    expect((await client.views.update(360001, { title: 'Renamed' })).title).toBe('Renamed');
    expect(fake.requestsTo('PUT', '/api/v2/views/360001.json')[0]!.json()).toEqual({
      view: { title: 'Renamed' },
    });
    await client.views.delete(360001);
    expect(fake.requestsTo('DELETE', '/api/v2/views/360001.json')).toHaveLength(1);
  });
});

describe('ticket field deletion and token revocation', () => {
  it('deletes a ticket field and revokes the current token with its own bearer', async () => {
    fake.on('DELETE', '/api/v2/ticket_fields/77.json', { status: 204 });
    fake.on('DELETE', '/api/v2/oauth/tokens/current.json', { status: 204 });
    const { client } = clientFor(fake);
    await client.ticketFields.delete(77);
    await client.oauthTokens.revokeCurrent();
    const [revoke] = fake.requestsTo('DELETE', '/api/v2/oauth/tokens/current.json');
    expect(revoke!.headers.authorization).toMatch(/^Bearer \S+/);
  });
});

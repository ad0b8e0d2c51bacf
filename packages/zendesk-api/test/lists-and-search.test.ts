import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCustomFieldTicketQuery, ZendeskRequestValidationError, type TComment } from '../src';
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

const comment = (id: number, authorId: number, isPublic = true) => ({
  id,
  type: 'Comment',
  author_id: authorId,
  body: `body ${id}`,
  html_body: `<p>body ${id}</p>`,
  plain_body: `body ${id}`,
  public: isPublic,
  attachments: [
    {
      id: id * 10,
      file_name: 'shot.png',
      content_url: 'https://acme.zendesk.com/attachments/token/x/?name=shot.png',
      content_type: 'image/png',
      size: 12,
    },
  ],
  via: { channel: 'web' },
  metadata: {},
  created_at: '2026-11-21T10:00:00Z',
});

describe('tickets.comments.list', () => {
  it('asks for newest first with users, and returns comments and users', async () => {
    fake.on('GET', '/api/v2/tickets/42/comments.json', {
      json: {
        comments: [comment(2, 500), comment(1, 501, false)],
        users: [
          { id: 500, name: 'Agent', email: 'agent@acme.test', role: 'agent' },
          { id: 501, email: 'end@user.test', role: 'end-user' },
        ],
        meta: { has_more: false, after_cursor: null, before_cursor: null },
      },
    });
    const { client } = clientFor(fake);

    const page = await client.tickets.comments.list(42);

    const [request] = fake.requests;
    expect(request?.query.get('sort_order')).toBe('desc');
    expect(request?.query.get('include')).toBe('users');
    expect(request?.query.get('page[size]')).toBe('100');
    expect(request?.query.has('page[after]')).toBe(false);
    expect(page.comments.map((c) => c.id)).toEqual([2, 1]);
    expect(page.comments[0]?.attachments[0]?.content_url).toContain('/attachments/token/');
    expect(page.authorOf(page.comments[0] as TComment)?.email).toBe('agent@acme.test');
    expect(page.hasNextPage()).toBe(false);
  });

  it('iterates every comment across cursor pages', async () => {
    fake.on('GET', '/api/v2/tickets/42/comments.json', (request: RecordedRequest) =>
      request.query.get('page[after]') === 'c2'
        ? {
            json: {
              comments: [comment(1, 500)],
              users: [],
              meta: { has_more: false, after_cursor: null },
            },
          }
        : {
            json: {
              comments: [comment(3, 500), comment(2, 500)],
              users: [],
              meta: { has_more: true, after_cursor: 'c2' },
            },
          },
    );
    const { client } = clientFor(fake);

    const ids: number[] = [];
    for await (const each of client.tickets.comments.list(42, {
      pageSize: 2,
      sortOrder: 'asc',
      includeUsers: false,
    })) {
      ids.push(each.id);
    }

    expect(ids).toEqual([3, 2, 1]);
    expect(fake.requests.map((request) => request.query.get('page[after]'))).toEqual([null, 'c2']);
    expect(fake.requests[0]?.query.get('sort_order')).toBe('asc');
    expect(fake.requests[0]?.query.has('include')).toBe(false);
  });
});

describe('ticketFields', () => {
  it('lists every field across pages', async () => {
    fake.on(
      'GET',
      '/api/v2/ticket_fields.json',
      {
        json: {
          ticket_fields: [{ id: 1, type: 'subject', title: 'Subject' }],
          meta: { has_more: true, after_cursor: 'a1' },
        },
      },
      {
        json: {
          ticket_fields: [{ id: 100, type: 'text', title: 'Threat URL', active: true }],
          meta: { has_more: false },
        },
      },
    );
    const { client } = clientFor(fake);
    const titles: string[] = [];
    for await (const field of client.ticketFields.list()) titles.push(field.title);
    expect(titles).toEqual(['Subject', 'Threat URL']);
    expect(fake.requests[1]?.query.get('page[after]')).toBe('a1');
  });

  it('walks whole pages from the first one with pages()', async () => {
    fake.on(
      'GET',
      '/api/v2/ticket_fields.json',
      {
        json: {
          ticket_fields: [{ id: 1, type: 'subject', title: 'Subject' }],
          meta: { has_more: true, after_cursor: 'a1' },
        },
      },
      {
        json: {
          ticket_fields: [{ id: 100, type: 'text', title: 'Threat URL', active: true }],
          meta: { has_more: false },
        },
      },
    );
    const { client } = clientFor(fake);
    const first = await client.ticketFields.list();
    const pages: string[][] = [];
    for await (const page of first.pages()) pages.push(page.getItems().map((field) => field.title));
    expect(pages).toEqual([['Subject'], ['Threat URL']]);
    expect(fake.requests).toHaveLength(2);
  });

  it('creates a text field', async () => {
    fake.on('POST', '/api/v2/ticket_fields.json', {
      status: 201,
      json: { ticket_field: { id: 101, type: 'text', title: 'Incident ID' } },
    });
    const { client } = clientFor(fake);
    const created = await client.ticketFields.create({ type: 'text', title: 'Incident ID' });
    expect(created.id).toBe(101);
    expect(fake.requests[0]?.json()).toEqual({
      ticket_field: { type: 'text', title: 'Incident ID' },
    });
  });
});

describe('ticket field updates', () => {
  it("sends the options that replace the field's, and refuses a type change before any request", async () => {
    fake.on('PUT', '/api/v2/ticket_fields/101.json', {
      json: { ticket_field: { id: 101, type: 'tagger', title: 'Incident Status', active: true } },
    });
    const { client } = clientFor(fake);
    const options = [{ name: 'Approval required', value: 'approval_required' }];
    const updated = await client.ticketFields.update(101, { custom_field_options: options });
    expect(updated.id).toBe(101);
    expect(fake.requests[0]?.json()).toEqual({ ticket_field: { custom_field_options: options } });
    await expect(client.ticketFields.update(101, { type: 'text' } as never)).rejects.toThrow();
    await expect(
      client.ticketFields.update(101, {
        custom_field_options: [{ name: 'x', value: 'two words' }],
      }),
    ).rejects.toThrow();
    expect(fake.requests).toHaveLength(1);
  });
});

describe('triggers', () => {
  const trigger = {
    title: 'incident-desk: report threat',
    conditions: {
      all: [
        { field: 'current_tags', operator: 'includes', value: 'incident_submit' },
        {
          field: 'current_tags',
          operator: 'not_includes',
          value: 'incident_linked incident_unlinked',
        },
      ],
      any: [],
    },
    actions: [
      {
        field: 'notification_webhook',
        value: ['01HWEBHOOK', '{"kind":"report","ticketId":"{{ticket.id}}"}'],
      },
    ],
  };

  it('lists, creates, updates and deletes', async () => {
    fake.on('GET', '/api/v2/triggers.json', {
      json: { triggers: [{ id: 5, ...trigger, active: true }], meta: { has_more: false } },
    });
    fake.on('POST', '/api/v2/triggers.json', {
      status: 201,
      json: { trigger: { id: 6, ...trigger } },
    });
    fake.on('PUT', '/api/v2/triggers/6.json', {
      json: { trigger: { id: 6, ...trigger, active: false } },
    });
    fake.on('DELETE', '/api/v2/triggers/6.json', { status: 204 });
    const { client } = clientFor(fake);

    const page = await client.triggers.list({ active: true });
    const created = await client.triggers.create(trigger);
    const updated = await client.triggers.update(6, { active: false });
    await client.triggers.delete(6);

    expect(page.items[0]?.conditions.all).toHaveLength(2);
    expect(created.id).toBe(6);
    expect(updated.active).toBe(false);
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /api/v2/triggers.json',
      'POST /api/v2/triggers.json',
      'PUT /api/v2/triggers/6.json',
      'DELETE /api/v2/triggers/6.json',
    ]);
    expect(fake.requests[0]?.query.get('active')).toBe('true');
    expect(fake.requests[1]?.json()).toEqual({ trigger });
    expect(fake.requests[2]?.json()).toEqual({ trigger: { active: false } });
  });

  it('refuses a trigger without actions', async () => {
    const { client } = clientFor(fake);
    await expect(client.triggers.create({ ...trigger, actions: [] })).rejects.toBeInstanceOf(
      ZendeskRequestValidationError,
    );
    expect(fake.requests).toHaveLength(0);
  });
});

describe('search', () => {
  it('builds the custom field query and returns tickets', async () => {
    fake.on('GET', '/api/v2/search.json', {
      json: {
        results: [{ id: 42, result_type: 'ticket', tags: ['incident_linked'] }],
        next_page: null,
        count: 1,
      },
    });
    const { client } = clientFor(fake);

    const page = await client.search.ticketsByCustomField(101, 'inc_123');

    expect(fake.requests[0]?.query.get('query')).toBe('type:ticket custom_field_101:inc_123');
    // %20 rather than '+', which not every server decodes as a space
    expect(fake.requests[0]?.rawQuery).toContain(
      'query=type%3Aticket%20custom_field_101%3Ainc_123',
    );
    expect(page.results[0]?.tags).toEqual(['incident_linked']);
    expect(page.count).toBe(1);
    expect(page.hasNextPage()).toBe(false);
  });

  it('searches tickets by tag, and refuses a tag search syntax would split', async () => {
    fake.on('GET', '/api/v2/search.json', {
      json: { results: [{ id: 7, result_type: 'ticket' }], next_page: null, count: 1 },
    });
    const { client } = clientFor(fake);
    const page = await client.search.ticketsWithTag('incident_linked');
    expect(fake.requests[0]?.query.get('query')).toBe('type:ticket tags:incident_linked');
    expect(page.results.map((ticket) => ticket.id)).toEqual([7]);
    expect(() => client.search.ticketsWithTag('two words')).toThrow(ZendeskRequestValidationError);
  });

  it('follows next_page against the configured base URL only', async () => {
    fake.on(
      'GET',
      '/api/v2/search.json',
      {
        json: {
          results: [{ id: 1, result_type: 'ticket' }],
          next_page: 'https://elsewhere.example/api/v2/search.json?page=2&query=status%3Aopen',
          count: 2,
        },
      },
      { json: { results: [{ id: 2, result_type: 'user' }], next_page: null, count: 2 } },
    );
    const { client } = clientFor(fake);

    const ids: number[] = [];
    for await (const result of client.search.query('status:open', {
      sortBy: 'updated_at',
      sortOrder: 'desc',
    }))
      ids.push(result.id);

    expect(ids).toEqual([1, 2]);
    expect(fake.requests[0]?.query.get('sort_by')).toBe('updated_at');
    expect(fake.requests[0]?.query.get('sort_order')).toBe('desc');
    expect(fake.requests[1]?.query.get('page')).toBe('2');
    expect(fake.requests[1]?.query.get('query')).toBe('status:open');
    expect(fake.requests[1]?.headers.authorization).toBe('Bearer token-1');
  });

  it('quotes values with spaces and refuses ones it cannot express', () => {
    expect(buildCustomFieldTicketQuery(7, 'a b')).toBe('type:ticket custom_field_7:"a b"');
    expect(buildCustomFieldTicketQuery(7, 12345)).toBe('type:ticket custom_field_7:12345');
    expect(() => buildCustomFieldTicketQuery(7, 'a"b')).toThrow(ZendeskRequestValidationError);
    expect(() => buildCustomFieldTicketQuery(0, 'x')).toThrow(ZendeskRequestValidationError);
  });
});

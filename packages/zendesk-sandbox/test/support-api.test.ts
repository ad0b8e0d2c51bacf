import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startSandbox, type Running } from './support';

describe('Support API subset', () => {
  let run: Running;
  let agent: string;
  let admin: string;
  let now = Date.UTC(2026, 10, 1);

  beforeAll(async () => {
    run = await startSandbox({ clock: () => now });
    agent = run.token(run.demo.agentIds[0]);
    admin = run.token(run.demo.adminId);
  });
  afterAll(() => run.close());

  it('creates a ticket with 201 and a Location, and returns the audit', async () => {
    const created = await call(run.api('demo', 'tickets.json'), {
      token: agent,
      body: {
        ticket: {
          subject: 'S',
          comment: { html_body: '<p>Hello <b>there</b></p>' },
          requester: { email: 'new@customer.example', name: 'New Person' },
          assignee_id: run.demo.agentIds[1],
        },
      },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(
      run.api('demo', `tickets/${created.body.ticket.id}.json`),
    );
    expect(created.body.ticket).toMatchObject({
      subject: 'S',
      status: 'open',
      assignee_id: run.demo.agentIds[1],
      description: 'Hello there',
    });
    expect(created.body.audit.events.map((e: { type: string }) => e.type)).toContain('Comment');
  });

  it('answers RecordInvalid with details for bad values and RecordNotFound for missing records', async () => {
    const noComment = await call(run.api('demo', 'tickets.json'), {
      token: agent,
      body: { ticket: { subject: 'x' } },
    });
    expect(noComment.status).toBe(422);
    expect(noComment.body).toMatchObject({
      error: 'RecordInvalid',
      details: { base: [{ error: 'BlankValue' }] },
    });
    const badStatus = await call(run.api('demo', 'tickets/1.json'), {
      method: 'PUT',
      token: agent,
      body: { ticket: { status: 'bogus' } },
    });
    expect(badStatus.status).toBe(422);
    expect(badStatus.body.details.status[0].description).toMatch(/bogus/);
    const badAssignee = await call(run.api('demo', 'tickets/1.json'), {
      method: 'PUT',
      token: agent,
      body: { ticket: { assignee_id: run.demo.endUserId } },
    });
    expect(badAssignee.status).toBe(422);
    expect(badAssignee.body.details.assignee).toBeDefined();
    const missing = await call(run.api('demo', 'tickets/4242.json'), { token: agent });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'RecordNotFound', description: 'Not found' });
    const noAuth = await call(run.api('demo', 'tickets/1.json'));
    expect(noAuth.status).toBe(401);
  });

  it('answers 400 to a malformed JSON body', async () => {
    const response = await fetch(run.api('demo', 'tickets.json'), {
      method: 'POST',
      headers: { Authorization: `Bearer ${agent}`, 'Content-Type': 'application/json' },
      body: '{"ticket":',
    });
    expect(response.status).toBe(400);
  });

  it('refuses to update a closed ticket', async () => {
    const created = await call(run.api('demo', 'tickets.json'), {
      token: agent,
      body: { ticket: { subject: 'c', comment: { body: 'c' }, status: 'closed' } },
    });
    const again = await call(run.api('demo', `tickets/${created.body.ticket.id}.json`), {
      method: 'PUT',
      token: agent,
      body: { ticket: { status: 'open' } },
    });
    expect(again.status).toBe(422);
  });

  it('creates a follow-up (via_followup_source_id) of a closed ticket, and ignores it for any other ticket, as Zendesk', async () => {
    const closed = await call(run.api('demo', 'tickets.json'), {
      token: agent,
      body: {
        ticket: {
          subject: 'old',
          comment: { body: 'old' },
          status: 'closed',
          tags: ['incident_linked'],
        },
      },
    });
    const open = await call(run.api('demo', 'tickets.json'), {
      token: agent,
      body: { ticket: { subject: 'live', comment: { body: 'live' } } },
    });
    const followUp = await call(run.api('demo', 'tickets.json'), {
      token: agent,
      body: {
        ticket: {
          subject: 'again',
          comment: { body: 'again', public: false },
          via_followup_source_id: closed.body.ticket.id,
        },
      },
    });
    expect(followUp.status).toBe(201);
    expect(followUp.body.ticket.via.source).toEqual({
      rel: 'follow_up',
      from: { ticket_id: closed.body.ticket.id },
      to: {},
    });
    expect(followUp.body.ticket.tags).toEqual(['incident_linked']); // inherited
    const shown = await call(run.api('demo', `tickets/${followUp.body.ticket.id}.json`), {
      token: agent,
    });
    expect(shown.body.ticket.via.source.from.ticket_id).toBe(closed.body.ticket.id);
    // "The parameter only works with closed tickets. It has no effect with other tickets."
    const notFollowUp = await call(run.api('demo', 'tickets.json'), {
      token: agent,
      body: {
        ticket: {
          subject: 'x',
          comment: { body: 'x' },
          via_followup_source_id: open.body.ticket.id,
        },
      },
    });
    expect(notFollowUp.status).toBe(201);
    expect(notFollowUp.body.ticket.via.source).toEqual({ rel: null, from: {}, to: {} });
  });

  it('answers a repeated Idempotency-Key on create with the first ticket', async () => {
    const create = () =>
      fetch(run.api('demo', 'tickets.json'), {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${agent}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': 'k-1',
        },
        body: JSON.stringify({ ticket: { subject: 'once', comment: { body: 'once' } } }),
      });
    const first = await create();
    const second = await create();
    expect(second.status).toBe(201);
    expect(second.headers.get('x-idempotency-lookup')).toBe('hit');
    const [a, b] = (await Promise.all([first.json(), second.json()])) as {
      ticket: { id: number };
    }[];
    expect(b!.ticket.id).toBe(a!.ticket.id);
  });

  it('updates custom fields, tags, status and group, and lists comments in either order with users', async () => {
    const groupId = (await call(run.api('demo', 'tickets/1.json'), { token: agent })).body.ticket
      .group_id as number;
    const updated = await call(run.api('demo', 'tickets/1.json'), {
      method: 'PUT',
      token: agent,
      body: {
        ticket: {
          custom_fields: [{ id: run.demo.incidentFieldId, value: 'inc_123' }],
          additional_tags: ['incident_linked', 'Extra Tag'],
          remove_tags: ['phishing'],
          status: 'pending',
          group_id: groupId,
          comment: { body: 'Linked to  incident inc_123\n\n\n\nbye', public: false },
        },
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.ticket.tags).toEqual(['incident_linked', 'extra', 'tag']);
    expect(updated.body.ticket.custom_fields).toContainEqual({
      id: run.demo.incidentFieldId,
      value: 'inc_123',
    });
    expect(updated.body.ticket.status).toBe('pending');

    const desc = await call(
      run.api('demo', 'tickets/1/comments.json?sort_order=desc&include=users'),
      { token: agent },
    );
    const [latest] = desc.body.comments;
    expect(latest).toMatchObject({
      public: false,
      author_id: run.demo.agentIds[0],
      type: 'Comment',
    });
    expect(latest.plain_body).toBe('Linked to\u00a0 incident inc_123\n\n\u00a0\n\nbye');
    expect(latest.html_body).toContain('Linked to&nbsp; incident');
    expect(desc.body.users.map((u: { id: number }) => u.id).sort()).toEqual(
      [run.demo.agentIds[0], run.demo.endUserId].sort(),
    );
    const asc = await call(run.api('demo', 'tickets/1/comments.json'), { token: agent });
    expect(asc.body.comments.at(-1).id).toBe(latest.id);
    expect(asc.body.users).toBeUndefined();
  });

  it('takes only one of the options of a drop-down (422 as Zendesk, nothing applied) and tags the ticket with it', async () => {
    const put = (value: string | null, body = 'note') =>
      call(run.api('demo', 'tickets/2.json'), {
        method: 'PUT',
        token: agent,
        body: {
          ticket: {
            custom_fields: [{ id: run.demo.statusFieldId, value }],
            comment: { body, public: false },
          },
        },
      });
    const comments = async () =>
      (await call(run.api('demo', 'tickets/2/comments.json'), { token: agent })).body.comments
        .length as number;
    const before = await comments();
    const refused = await put('approval_required', 'refused note');
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      error: 'RecordInvalid',
      details: {
        [`custom_field_${run.demo.statusFieldId}`]: [
          {
            error: 'InvalidValue',
            description: 'Incident Status: approval_required is not a valid option',
          },
        ],
      },
    });
    expect(await comments()).toBe(before);

    const first = await put('incident_status_approval_required');
    expect(first.status).toBe(200);
    expect(first.body.ticket.custom_fields).toContainEqual({
      id: run.demo.statusFieldId,
      value: 'incident_status_approval_required',
    });
    expect(first.body.ticket.tags).toContain('incident_status_approval_required');
    const second = await put('incident_status_takedown_success');
    expect(second.body.ticket.tags).toContain('incident_status_takedown_success');
    expect(second.body.ticket.tags).not.toContain('incident_status_approval_required');
    const cleared = await put(null);
    expect(cleared.status).toBe(200);
    expect(cleared.body.ticket.tags).not.toContain('incident_status_takedown_success');
  });

  it('uploads files, attaches them to a comment and serves content_url', async () => {
    const upload = await fetch(run.api('demo', 'uploads.json?filename=evidence.txt'), {
      method: 'POST',
      headers: { Authorization: `Bearer ${agent}`, 'Content-Type': 'text/plain' },
      body: 'screenshot bytes',
    });
    expect(upload.status).toBe(201);
    const { upload: created } = (await upload.json()) as {
      upload: { token: string; attachment: { content_url: string; size: number } };
    };
    expect(created.attachment.size).toBe(16);
    const put = await call(run.api('demo', 'tickets/2.json'), {
      method: 'PUT',
      token: agent,
      body: { ticket: { comment: { body: 'see attached', uploads: [created.token] } } },
    });
    expect(put.status).toBe(200);
    const comments = await call(run.api('demo', 'tickets/2/comments.json?sort_order=desc'), {
      token: agent,
    });
    const [attachment] = comments.body.comments[0].attachments;
    expect(attachment).toMatchObject({
      file_name: 'evidence.txt',
      content_type: 'text/plain',
      size: 16,
    });
    const content = await fetch(attachment.content_url);
    expect(content.status).toBe(200);
    expect(await content.text()).toBe('screenshot bytes');
    // An upload token works once.
    const reuse = await call(run.api('demo', 'tickets/2.json'), {
      method: 'PUT',
      token: agent,
      body: { ticket: { comment: { body: 'again', uploads: [created.token] } } },
    });
    expect(reuse.status).toBe(422);
  });

  it('adds a reply with an attachment through the control API and shows the full state', async () => {
    const reply = await call(`${run.url}/_sandbox/accounts/demo/tickets/3/comments`, {
      body: {
        author_id: run.demo.agentIds[1],
        body: 'Note with file',
        public: false,
        attachments: [
          {
            file_name: 'a.png',
            content_type: 'image/png',
            content_base64: Buffer.from('png!').toString('base64'),
          },
        ],
      },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.comment).toMatchObject({ public: false, author_id: run.demo.agentIds[1] });
    const state = await call(`${run.url}/_sandbox/accounts/demo/tickets/3`);
    expect(state.body.comments.at(-1).attachments[0].file_name).toBe('a.png');
    expect(state.body.users.length).toBeGreaterThanOrEqual(2);
    const endUserNote = await call(`${run.url}/_sandbox/accounts/demo/tickets/3/comments`, {
      body: { author_id: run.demo.endUserId, body: 'x', public: false },
    });
    expect(endUserNote.status).toBe(422);
  });

  it('paginates tickets with cursors: page[size], meta.has_more and links.next', async () => {
    const first = await call(run.api('demo', 'tickets.json?page[size]=2'), { token: agent });
    expect(first.body.tickets).toHaveLength(2);
    expect(first.body.meta.has_more).toBe(true);
    const second = await call(first.body.links.next, { token: agent });
    expect(second.body.tickets[0].id).toBeGreaterThan(first.body.tickets[1].id);
    const tooBig = await call(run.api('demo', 'tickets.json?page[size]=101'), { token: agent });
    expect(tooBig.status).toBe(400);
  });

  it('finds tickets by custom field only after the indexing lag', async () => {
    await call(`${run.url}/_sandbox/accounts/demo/search-lag`, {
      method: 'PUT',
      body: { ms: 60_000 },
    });
    const created = await call(run.api('demo', 'tickets.json'), {
      token: agent,
      body: {
        ticket: {
          subject: 'lagging',
          comment: { body: 'x' },
          custom_fields: [{ id: run.demo.threatFieldId, value: 'lag.test' }],
        },
      },
    });
    const query = run.api(
      'demo',
      `search.json?query=${encodeURIComponent(`type:ticket custom_field_${run.demo.threatFieldId}:lag.test`)}`,
    );
    expect((await call(query, { token: agent })).body).toMatchObject({ results: [], count: 0 });
    now += 60_001;
    const later = await call(query, { token: agent });
    expect(later.body.results.map((r: { id: number }) => r.id)).toEqual([created.body.ticket.id]);
    await call(`${run.url}/_sandbox/accounts/demo/search-lag`, { method: 'PUT', body: { ms: 0 } });
  });

  it('finds a ticket by the exact value of a custom field, either id form, and never by a prefix', async () => {
    const field = run.demo.threatFieldId;
    const ids = ['inc_Exact01', '6f1c0a9e-list-id', 'star*id'];
    const created: number[] = [];
    for (const value of ids) {
      const ticket = await call(run.api('demo', 'tickets.json'), {
        token: agent,
        body: {
          ticket: { subject: value, comment: { body: 'x' }, custom_fields: [{ id: field, value }] },
        },
      });
      created.push(ticket.body.ticket.id);
    }
    const found = async (value: string) =>
      (
        await call(
          run.api(
            'demo',
            `search.json?query=${encodeURIComponent(`type:ticket custom_field_${field}:${value}`)}`,
          ),
          { token: agent },
        )
      ).body.results.map((r: { id: number }) => r.id);
    expect(await found('inc_Exact01')).toEqual([created[0]]);
    expect(await found('"6f1c0a9e-list-id"')).toEqual([created[1]]);
    expect(await found('inc_Exact0')).toEqual([]);
    // quoted, `*` is part of the value (the connector quotes such ids), not a wildcard
    expect(await found('"star*id"')).toEqual([created[2]]);
    expect(await found('"star*"')).toEqual([]);
  });

  it('understands the search operators a connector uses and rejects an empty query', async () => {
    const q = (query: string) =>
      call(run.api('demo', `search.json?query=${encodeURIComponent(query)}`), { token: agent });
    const tagged = await q('type:ticket tags:incident_linked');
    expect(tagged.body.results.map((r: { id: number }) => r.id)).toContain(1);
    const negated = await q('type:ticket -tags:incident_linked');
    expect(negated.body.results.map((r: { id: number }) => r.id)).not.toContain(1);
    expect(negated.body.results.map((r: { id: number }) => r.id)).toContain(2);
    const byRequester = await q('type:ticket requester:erin@customer.example');
    expect(byRequester.body.count).toBeGreaterThanOrEqual(3);
    expect((await q('type:user erin')).body.results).toEqual([]);
    expect((await call(run.api('demo', 'search.json?query='), { token: agent })).status).toBe(400);
  });

  it('creates ticket fields only with valid input and as an admin with write scope', async () => {
    const invalid = await call(run.api('demo', 'ticket_fields.json'), {
      token: admin,
      body: { ticket_field: { type: 'text' } },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.details.title[0].error).toBe('BlankValue');
    const asAgent = await call(run.api('demo', 'ticket_fields.json'), {
      token: agent,
      body: { ticket_field: { type: 'text', title: 'T' } },
    });
    expect(asAgent.status).toBe(403);
    const narrow = run.token(run.demo.adminId, ['tickets:read', 'tickets:write']);
    expect(
      (
        await call(run.api('demo', 'ticket_fields.json'), {
          token: narrow,
          body: { ticket_field: { type: 'text', title: 'T' } },
        })
      ).status,
    ).toBe(403);
  });

  it('updates a drop-down field: options replaced (kept ones keep their id), no type change, never empty', async () => {
    const created = await call(run.api('demo', 'ticket_fields.json'), {
      token: admin,
      body: {
        ticket_field: {
          type: 'tagger',
          title: 'Status drop-down',
          custom_field_options: [{ name: 'Open', value: 'open_state' }],
        },
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.ticket_field.id as number;
    const keptId = created.body.ticket_field.custom_field_options[0].id as number;
    const put = (ticket_field: Record<string, unknown>, token = admin) =>
      call(run.api('demo', `ticket_fields/${id}.json`), {
        token,
        method: 'PUT',
        body: { ticket_field },
      });

    const updated = await put({
      custom_field_options: [
        { name: 'Still open', value: 'open_state' },
        { name: 'Closed', value: 'closed_state' },
      ],
      active: false,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.ticket_field).toMatchObject({ active: false });
    expect(updated.body.ticket_field.custom_field_options).toEqual([
      expect.objectContaining({ id: keptId, name: 'Still open', value: 'open_state' }),
      expect.objectContaining({ name: 'Closed', value: 'closed_state' }),
    ]);
    expect((await put({ type: 'text' })).status).toBe(422);
    expect((await put({ custom_field_options: [] })).status).toBe(422);
    expect((await put({ title: 'x' }, agent)).status).toBe(403);
    const missing = await call(run.api('demo', 'ticket_fields/999999.json'), {
      token: admin,
      method: 'PUT',
      body: { ticket_field: { title: 'x' } },
    });
    expect(missing.status).toBe(404);
  });

  it('manages webhooks: validation, list with cursor meta, show, delete', async () => {
    const invalid = await call(run.api('demo', 'webhooks'), {
      token: admin,
      body: { webhook: { name: 'x', endpoint: 'not a url' } },
    });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.details)).toEqual(
      expect.arrayContaining([
        'endpoint',
        'http_method',
        'request_format',
        'status',
        'subscriptions',
      ]),
    );
    const created = await call(run.api('demo', 'webhooks'), {
      token: admin,
      body: {
        webhook: {
          name: 'w',
          endpoint: 'https://example.test/hook',
          http_method: 'POST',
          request_format: 'json',
          status: 'active',
          subscriptions: ['conditional_ticket_events'],
          signing_secret: { secret: 'given-secret', algorithm: 'sha256' },
        },
      },
    });
    const id = created.body.webhook.id as string;
    expect(
      (await call(run.api('demo', `webhooks/${id}/signing_secret`), { token: admin })).body,
    ).toEqual({ signing_secret: { algorithm: 'SHA256', secret: 'given-secret' } });
    const list = await call(run.api('demo', 'webhooks?page[size]=10'), { token: admin });
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).toContain(id);
    expect(list.body.meta).toMatchObject({ has_more: false });
    expect(
      (await call(run.api('demo', `webhooks/${id}`), { method: 'DELETE', token: admin })).status,
    ).toBe(204);
    expect((await call(run.api('demo', `webhooks/${id}`), { token: admin })).status).toBe(404);
    expect((await call(run.api('demo', 'webhooks'), { token: agent })).status).toBe(403);
  });
});

import { createClient } from 'node-zendesk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Running } from './support';

// node-zendesk is an independent client: if the sandbox's shapes drift from Zendesk's, it breaks here.
describe('node-zendesk against the sandbox', () => {
  let run: Running;
  let client: ReturnType<typeof createClient>;

  beforeAll(async () => {
    run = await startSandbox();
    client = createClient({
      endpointUri: `${run.url}/_z/demo/api/v2`,
      oauth: true,
      token: run.token(run.demo.adminId),
    });
  });
  afterAll(() => run.close());

  it('creates, shows and updates a ticket, reading comments back', async () => {
    const created = await client.tickets.create({
      ticket: {
        subject: 'Created by node-zendesk',
        comment: { body: 'First  line\n\nsecond paragraph' },
        custom_fields: [{ id: run.demo.threatFieldId, value: 'https://evil.test/' }],
        tags: ['from_client'],
      },
    } as never);
    const ticket = created.result as {
      id: number;
      subject: string;
      tags: string[];
      custom_fields: { id: number; value: unknown }[];
    };
    expect(ticket.subject).toBe('Created by node-zendesk');
    expect(ticket.tags).toEqual(['from_client']);
    expect(ticket.custom_fields).toContainEqual({
      id: run.demo.threatFieldId,
      value: 'https://evil.test/',
    });

    const shown = await client.tickets.show(ticket.id);
    expect((shown.result as { id: number }).id).toBe(ticket.id);

    const updated = await client.tickets.update(ticket.id, {
      ticket: {
        comment: { body: 'internal note', public: false },
        additional_tags: ['incident_linked'],
        status: 'pending',
      },
    } as never);
    expect((updated.result as { status: string; tags: string[] }).status).toBe('pending');
    expect((updated.result as { tags: string[] }).tags).toEqual(['from_client', 'incident_linked']);

    const comments = (await client.tickets.getComments(ticket.id)) as {
      body: string;
      public: boolean;
      plain_body: string;
    }[];
    expect(comments.map((c) => [c.body, c.public])).toEqual([
      ['First  line\n\nsecond paragraph', true],
      ['internal note', false],
    ]);
    expect(comments[0]?.plain_body).toBe('First\u00a0 line\n\nsecond paragraph');
  });

  it('lists all tickets through cursor pagination', async () => {
    const tickets = (await client.tickets.list()) as { id: number }[];
    expect(tickets.map((t) => t.id)).toEqual([...new Set(tickets.map((t) => t.id))]);
    expect(tickets.length).toBeGreaterThanOrEqual(3);
  });

  it('lists and creates ticket fields', async () => {
    const before = (await client.ticketfields.list()) as {
      id: number;
      title: string;
      removable: boolean;
    }[];
    expect(before.filter((f) => f.removable).map((f) => f.title)).toEqual([
      'Threat URL',
      'Incident ID',
      'Incident Status',
    ]);
    const created = await client.ticketfields.create({
      ticket_field: { type: 'text', title: 'Severity' },
    } as never);
    const field = created.result as { id: number; title: string; type: string };
    expect(field).toMatchObject({ title: 'Severity', type: 'text' });
    const after = (await client.ticketfields.list()) as { id: number }[];
    expect(after.map((f) => f.id)).toContain(field.id);
  });

  it('reads the current user and another user', async () => {
    const me = await client.users.me();
    expect(me.result).toMatchObject({
      id: run.demo.adminId,
      role: 'admin',
      email: 'admin@demo.example',
    });
    const other = await client.users.show(run.demo.endUserId);
    expect(other.result).toMatchObject({ id: run.demo.endUserId, role: 'end-user' });
  });

  it('searches tickets by custom field', async () => {
    const found = await client.search.query(
      `type:ticket custom_field_${run.demo.threatFieldId}:https://login-example.phish.test/`,
    );
    const results = found.result as unknown as { id: number; result_type: string }[];
    expect(results.map((r) => r.id)).toEqual([run.demo.ticketIds[0]]);
    expect(results[0]?.result_type).toBe('ticket');
  });

  it('surfaces Zendesk errors: a missing ticket is a 404', async () => {
    await expect(client.tickets.show(99_999)).rejects.toThrow(/404/);
  });
});

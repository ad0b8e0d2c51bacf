// Conformance of the sandbox's Support API, driven through node-zendesk (an independent client
// written against Zendesk itself): its URLs, envelopes and error handling must work unchanged
// against the sandbox, and the sandbox must refuse what Zendesk refuses, as Zendesk words it.
import { createClient } from 'node-zendesk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startSandbox, type Running } from './support';

type Client = ReturnType<typeof createClient>;

/** The connector's steady-state scopes (apps/connector: STEADY_STATE_SCOPES), after setup narrows. */
const STEADY_STATE_SCOPES = ['tickets:read', 'tickets:write', 'users:read', 'apps:read'];

interface Refusal {
  status: number;
  body: { error?: string; description?: string; error_description?: string };
  retryAfter: string | null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- node-zendesk's results are untyped JSON
type Json = any;

describe('the sandbox through node-zendesk (a real Zendesk client)', () => {
  let run: Running;
  const clients: Record<string, Client> = {};
  const clientFor = (token: string, subdomain = 'demo'): Client =>
    createClient({
      endpointUri: `${run.url}/_z/${subdomain}/api/v2`,
      useOAuth: true,
      token,
      // the error keeps its status and Zendesk's body (node-zendesk otherwise rewraps it)
      throwOriginalException: true,
    });
  const admin = () => clients.admin!;

  /** What a refused call answered: status, Zendesk's body and Retry-After, as the client saw them. */
  async function refusal(attempt: Promise<unknown>): Promise<Refusal> {
    const error: Json = await attempt.then(
      () => {
        throw new Error('the call was not refused');
      },
      (caught: unknown) => caught,
    );
    const result = error?.result;
    const body = typeof result === 'string' ? JSON.parse(result) : (result ?? {});
    return { status: error?.statusCode, body, retryAfter: error?.retryAfter ?? null };
  }

  beforeAll(async () => {
    run = await startSandbox();
    clients.admin = clientFor(run.token(run.demo.adminId));
    clients.agent = clientFor(run.token(run.demo.agentIds[0]!));
    clients.steady = clientFor(run.token(run.demo.adminId, STEADY_STATE_SCOPES));
  });
  afterAll(() => run.close());

  it('creates, shows, updates and lists tickets, and reads their comments', async () => {
    const created = await admin().tickets.create({
      ticket: {
        subject: 'Conformance ticket',
        comment: { body: 'Reported link https://evil.test/' },
        requester_id: run.demo.endUserId,
        custom_fields: [{ id: run.demo.threatFieldId, value: 'https://evil.test/' }],
      },
    } as never);
    const ticket = created.result as Json;
    expect((created.response as Json).status).toBe(201);
    expect(ticket).toMatchObject({ subject: 'Conformance ticket', status: 'new' });

    expect(((await admin().tickets.show(ticket.id)).result as Json).id).toBe(ticket.id);

    const updated = await clients.steady!.tickets.update(ticket.id, {
      ticket: { comment: { body: 'internal note', public: false }, status: 'pending' },
    } as never);
    expect((updated.result as Json).status).toBe('pending');

    const comments = (await admin().tickets.getComments(ticket.id)) as Json[];
    expect(comments.map((c: Json) => [c.body, c.public])).toEqual([
      ['Reported link https://evil.test/', true],
      ['internal note', false],
    ]);

    const listed = (await admin().tickets.list()) as Json[];
    expect(listed.map((t: Json) => t.id)).toContain(ticket.id);
  });

  it('lists the system ticket fields before the custom ones, not removable', async () => {
    const fields = (await admin().ticketfields.list()) as Json[];
    const system = fields.filter((f: Json) => f.removable === false);
    expect(system.map((f: Json) => f.type)).toEqual([
      'subject',
      'description',
      'status',
      'tickettype',
      'priority',
      'group',
      'assignee',
    ]);
    expect(fields.slice(0, system.length)).toEqual(system);
    const custom = fields.filter((f: Json) => f.removable === true).map((f: Json) => f.title);
    expect(custom).toEqual(expect.arrayContaining(['Threat URL', 'Incident ID']));

    const status = system.find((f: Json) => f.type === 'status');
    const shown = (await admin().ticketfields.show(status.id)).result as Json;
    expect(shown).toMatchObject({ id: status.id, type: 'status', removable: false });
    expect(shown.system_field_options.map((o: Json) => o.value)).toContain('open');

    const refused = await refusal(admin().ticketfields.delete(status.id));
    expect(refused.status).toBe(422);
  });

  it('reads the current user and searches users by email and name', async () => {
    const me = (await clients.steady!.users.me()).result as Json;
    expect(me).toMatchObject({ id: run.demo.adminId, role: 'admin' });

    const byEmail = (await admin().users.search({ query: 'erin@customer.example' })) as Json[];
    expect(byEmail.map((u: Json) => u.id)).toEqual([run.demo.endUserId]);
    const agents = (await admin().users.search({ query: 'role:agent' })) as Json[];
    expect(agents.map((u: Json) => u.id).sort()).toEqual([...run.demo.agentIds].sort());
    expect(await admin().users.search({ query: 'nobody-by-that-name' })).toEqual([]);
  });

  it('searches tickets and counts the results of the same query', async () => {
    const query = `type:ticket custom_field_${run.demo.threatFieldId}:https://login-example.phish.test/`;
    const found = (await admin().search.query(query)).result as Json[];
    expect(found.map((r: Json) => r.id)).toEqual([run.demo.ticketIds[0]]);
    const counted = (await admin().search.showResultsCount(query)).result as Json;
    expect(counted).toEqual({ count: 1 });
    const none = (await admin().search.showResultsCount('type:ticket status:hold')).result as Json;
    expect(none).toEqual({ count: 0 });
  });

  it('creates a view, executes it and counts its tickets, one view or many', async () => {
    const created = (
      await admin().views.create({
        view: {
          title: 'Open and new',
          all: [{ field: 'status', operator: 'less_than', value: 'pending' }],
          output: { columns: ['nice_id', 'description', 'status', run.demo.threatFieldId] },
        },
      })
    ).result as Json;
    const all = (await admin().tickets.list()) as Json[];
    const expected = all.filter((t: Json) => ['new', 'open'].includes(t.status));
    expect(expected.length).toBeGreaterThan(0);

    // views.execute() unwraps the answer by resource name and so keeps only its `view` member;
    // the whole answer is read through the same client's transporter (its URL, auth and parsing).
    const executed = (await admin().views.execute(created.id, {})) as Json[];
    expect(executed).toEqual([expect.objectContaining({ id: created.id })]);
    const { result: page } = (await admin().views.transporter.request('GET', [
      'views',
      created.id,
      'execute',
    ])) as { result: Json };
    expect(page.view).toMatchObject({ id: created.id });
    expect(page.columns.map((c: Json) => c.id)).toEqual([
      'nice_id',
      'description',
      'status',
      run.demo.threatFieldId,
    ]);
    expect(page.rows.map((r: Json) => r.ticket.id)).toEqual(expected.map((t: Json) => t.id));
    expect(page.rows[0]).toMatchObject({
      subject: expected[0].subject,
      status: expected[0].status,
    });

    const count = (await admin().views.showCount(created.id)).result as Json;
    expect(count.view_count).toMatchObject({
      view_id: created.id,
      value: expected.length,
      fresh: true,
    });

    const many = (await admin().views.showCounts([created.id])).result as Json;
    expect(many.view_counts).toEqual([
      expect.objectContaining({ view_id: created.id, value: expected.length }),
    ]);

    const missing = await refusal(admin().views.showCount(999_999));
    expect(missing.status).toBe(404);
  });

  it('creates, lists and removes triggers and webhooks', async () => {
    const webhook = (
      await admin().webhooks.create({
        webhook: {
          name: 'Conformance hook',
          endpoint: 'https://example.test/hook',
          http_method: 'POST',
          request_format: 'json',
          status: 'active',
          subscriptions: ['conditional_ticket_events'],
        },
      })
    ).result as Json;
    expect(webhook.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(((await admin().webhooks.show(webhook.id)).result as Json).name).toBe(
      'Conformance hook',
    );

    const trigger = (
      await admin().triggers.create({
        trigger: {
          title: 'Conformance trigger',
          conditions: {
            all: [{ field: 'current_tags', operator: 'includes', value: 'conformance' }],
            any: [],
          },
          actions: [
            { field: 'notification_webhook', value: [webhook.id, '{"id":"{{ticket.id}}"}'] },
          ],
        },
      })
    ).result as Json;
    const triggers = (await admin().triggers.list()) as Json[];
    expect(triggers.map((t: Json) => t.id)).toContain(trigger.id);

    await admin().triggers.delete(trigger.id);
    await admin().webhooks.delete(webhook.id);
    expect((await refusal(admin().triggers.show(trigger.id))).status).toBe(404);
  });

  it('reads the current token, lists the caller’s tokens and shows one', async () => {
    const current = (await admin().oauthtokens.current()).result as Json;
    expect(current).toMatchObject({ user_id: run.demo.adminId, scopes: ['read', 'write'] });
    const listed = (await admin().oauthtokens.list()) as Json[];
    const tokens = listed.flatMap((entry: Json) => entry.tokens ?? [entry]);
    expect(tokens.map((t: Json) => t.id)).toContain(current.id);
    expect(tokens.every((t: Json) => t.user_id === run.demo.adminId)).toBe(true);
    const shown = (await admin().oauthtokens.show(current.id)).result as Json;
    expect(shown.id).toBe(current.id);
  });

  describe('refusals, as Zendesk words them', () => {
    it('refuses ticket fields to the steady-state token, naming the missing scope', async () => {
      const refused = await refusal(clients.steady!.ticketfields.list());
      expect(refused).toMatchObject({
        status: 403,
        body: {
          error: 'Forbidden',
          description: 'You are missing the following required scopes: read',
        },
      });
    });

    it('names the resource scope an endpoint lacks', async () => {
      const usersOnly = clientFor(run.token(run.demo.adminId, ['users:read']));
      expect(await refusal(usersOnly.tickets.show(run.demo.ticketIds[0]!))).toMatchObject({
        status: 403,
        body: { description: 'You are missing the following required scopes: tickets:read' },
      });
      const readOnly = clientFor(run.token(run.demo.adminId, ['read']));
      expect(
        await refusal(readOnly.tickets.update(run.demo.ticketIds[0]!, { ticket: {} } as never)),
      ).toMatchObject({
        status: 403,
        body: { description: 'You are missing the following required scopes: tickets:write' },
      });
      expect(await refusal(clients.steady!.triggers.list())).toMatchObject({
        status: 403,
        body: { description: 'You are missing the following required scopes: triggers:read' },
      });
      expect(await refusal(clients.steady!.webhooks.list())).toMatchObject({
        status: 403,
        body: { description: 'You are missing the following required scopes: webhooks:read' },
      });
      expect(await refusal(clients.steady!.views.showCount(1))).toMatchObject({
        status: 403,
        body: { description: 'You are missing the following required scopes: read' },
      });
    });

    it('refuses an agent an admin endpoint with Zendesk’s wording', async () => {
      expect(await refusal(clients.agent!.triggers.list())).toMatchObject({
        status: 403,
        body: {
          error: 'Forbidden',
          description:
            'You do not have access to this page. Please contact the account owner of this help desk for further help.',
        },
      });
    });

    it('answers an unknown token with 401 invalid_token', async () => {
      const stranger = clientFor('not-a-token');
      expect(await refusal(stranger.users.me())).toMatchObject({
        status: 401,
        body: { error: 'invalid_token' },
      });
    });

    it('answers over the plan limit with 429 and Retry-After', async () => {
      const opened = await call(`${run.url}/_sandbox/accounts`, {
        body: {
          subdomain: 'limited',
          requests_per_minute: 2,
          users: [{ name: 'Lim Admin', email: 'admin@limited.example', role: 'admin' }],
        },
      });
      expect(opened.status).toBe(201);
      const limited = clientFor(run.token(opened.body.users[0].id, ['read'], 'limited'), 'limited');
      await limited.users.me();
      await limited.users.me();
      // node-zendesk takes any answer with Retry-After for a rate limit: it resolves with the
      // 429 as an Error in `result` (statusCode, Zendesk's body) for the caller to wait and retry.
      const answered = (await limited.users.me()) as Json;
      expect(answered.response.status).toBe(429);
      expect(Number(answered.response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answered.result).toBeInstanceOf(Error);
      expect(answered.result).toMatchObject({
        statusCode: 429,
        result: { error: 'APIRateLimitExceeded' },
      });
    });
  });
});

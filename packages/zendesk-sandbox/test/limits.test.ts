import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startSandbox, type Running } from './support';

/** Zendesk's Update Ticket limits (100 a minute per account, 30 per 10 minutes per user per ticket) beside the plan's. */
describe('Zendesk limits', () => {
  let run: Running;
  let now = Date.UTC(2026, 10, 1);
  let accounts = 0;

  /** A fresh account with two agents and `tickets` tickets, so each test starts with full budgets. */
  const account = async (tickets: number, limits: Record<string, number> = {}) => {
    accounts += 1;
    const subdomain = `limits${accounts}`;
    const created = await call(`${run.url}/_sandbox/accounts`, {
      body: {
        subdomain,
        ...limits,
        users: [
          { name: 'A', email: 'a@x.example', role: 'agent' },
          { name: 'B', email: 'b@x.example', role: 'agent' },
          { name: 'E', email: 'e@x.example', role: 'end-user' },
        ],
      },
    });
    expect(created.status).toBe(201);
    const [a, b, endUser] = created.body.users as { id: number }[];
    const ids: number[] = [];
    for (let i = 0; i < tickets; i += 1) {
      const ticket = await call(`${run.url}/_sandbox/accounts/${subdomain}/tickets`, {
        body: { requester_id: endUser?.id, subject: `T${i}`, body: 'help' },
      });
      ids.push(ticket.body.ticket.id);
    }
    return {
      subdomain,
      ids,
      a: run.token(a?.id ?? 0, ['read', 'write'], subdomain),
      b: run.token(b?.id ?? 0, ['read', 'write'], subdomain),
    };
  };
  const put = (
    subdomain: string,
    id: number,
    token: string,
    ticket: Record<string, unknown> = { additional_tags: ['x'] },
  ) => call(run.api(subdomain, `tickets/${id}.json`), { method: 'PUT', token, body: { ticket } });
  const refusals = async (subdomain: string) =>
    (await call(`${run.url}/_sandbox/accounts/${subdomain}/rate-limited`)).body;

  beforeAll(async () => {
    run = await startSandbox({ clock: () => now });
  });
  afterAll(() => run.close());

  it('has Zendesk figures by default: 700 a minute, Update Ticket 100 a minute, 30 per 10 minutes per user per ticket, 30 jobs', async () => {
    const { subdomain } = await account(0);
    const listed = (await call(`${run.url}/_sandbox/accounts`)).body.accounts.find(
      (a: { subdomain: string }) => a.subdomain === subdomain,
    );
    expect(listed.limits).toEqual({
      requests_per_minute: 700,
      window_ms: 60_000,
      update_ticket_per_minute: 100,
      update_ticket_window_ms: 60_000,
      ticket_updates_per_user: 30,
      ticket_updates_window_ms: 600_000,
      max_active_jobs: 30,
    });
  });

  it('answers the 101st Update Ticket request in a minute with 429, Zendesk body, Retry-After and rate-limit headers', async () => {
    const { subdomain, ids, a } = await account(5);
    for (let i = 0; i < 100; i += 1) {
      const ok = await put(subdomain, ids[i % 5] ?? 0, a);
      expect(ok.status).toBe(200);
    }
    now += 45_000;
    const refused = await put(subdomain, ids[0] ?? 0, a);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'APIRateLimitExceeded',
      description: 'Number of allowed Update Ticket API requests per minute exceeded',
    });
    expect(refused.headers.get('retry-after')).toBe('15');
    expect(refused.headers.get('x-rate-limit')).toBe('700');
    expect(refused.headers.get('x-rate-limit-remaining')).toBe('599');
    expect(refused.headers.get('ratelimit-limit')).toBe('700');
    expect(refused.headers.get('ratelimit-remaining')).toBe('599');
    expect(refused.headers.get('ratelimit-reset')).toBe('15');
    // The refused request changed nothing; other endpoints are still answered.
    const read = await call(run.api(subdomain, `tickets/${ids[0]}.json`), { token: a });
    expect(read.status).toBe(200);
    expect(await refusals(subdomain)).toEqual({
      total: 1,
      by_limit: { plan: 0, update_ticket: 1, ticket_updates_per_user: 0, jobs: 0 },
    });
    now += 15_000;
    expect((await put(subdomain, ids[1] ?? 0, a)).status).toBe(200);
  });

  it('limits one user to 30 updates of one ticket per 10 minutes, independently per user and per ticket', async () => {
    const { subdomain, ids, a, b } = await account(2);
    const [first = 0, second = 0] = ids;
    for (let i = 0; i < 30; i += 1) expect((await put(subdomain, first, a)).status).toBe(200);
    now += 61_000; // a new minute: only the per-ticket window is still full
    const refused = await put(subdomain, first, a);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'APIRateLimitExceeded',
      description: `Number of allowed updates to ticket ${first} per user per 10 minutes exceeded`,
    });
    expect(refused.headers.get('retry-after')).toBe('539');
    expect((await put(subdomain, second, a)).status).toBe(200);
    expect((await put(subdomain, first, b)).status).toBe(200);
    expect((await refusals(subdomain)).by_limit.ticket_updates_per_user).toBe(1);
    now += 539_000;
    expect((await put(subdomain, first, a)).status).toBe(200);
  });

  it("counts only the updates it applied against a ticket's 30, never a refused or failed request", async () => {
    const { subdomain, ids, a } = await account(1);
    const [ticket = 0] = ids;
    const refusedUpdate = { comment: { body: 'x', uploads: ['no-such-upload'] } };
    await call(`${run.url}/_sandbox/faults`, {
      body: {
        subdomain,
        path: `/api/v2/tickets/${ticket}.json`,
        kind: 'error',
        status: 500,
        times: 5,
      },
    });
    for (let i = 0; i < 5; i += 1) expect((await put(subdomain, ticket, a)).status).toBe(500);
    for (let i = 0; i < 5; i += 1)
      expect((await put(subdomain, ticket, a, refusedUpdate)).status).toBe(422);
    now += 61_000; // the refused requests still counted in the endpoint's minute
    for (let i = 0; i < 30; i += 1) expect((await put(subdomain, ticket, a)).status).toBe(200);
    now += 61_000;
    expect((await put(subdomain, ticket, a)).status).toBe(429);
    expect((await refusals(subdomain)).by_limit.ticket_updates_per_user).toBe(1);
  });

  it('keeps the plan limit in front of the endpoint limits and counts its 429s', async () => {
    const { subdomain, ids, a } = await account(1, { requests_per_minute: 2 });
    expect((await put(subdomain, ids[0] ?? 0, a)).status).toBe(200);
    expect((await call(run.api(subdomain, 'users/me.json'), { token: a })).status).toBe(200);
    const refused = await put(subdomain, ids[0] ?? 0, a);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'APIRateLimitExceeded',
      description: 'Number of allowed API requests per minute exceeded',
    });
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refusals(subdomain)).toEqual({
      total: 1,
      by_limit: { plan: 1, update_ticket: 0, ticket_updates_per_user: 0, jobs: 0 },
    });
  });

  it('sets each limit per account through the control API, leaving the others as they are', async () => {
    const { subdomain, ids, a } = await account(1);
    const set = await call(`${run.url}/_sandbox/accounts/${subdomain}/rate-limit`, {
      method: 'PUT',
      body: { update_ticket_per_minute: 2, ticket_updates_per_user: 5, max_active_jobs: 3 },
    });
    expect(set.status).toBe(200);
    expect(set.body.account.limits).toMatchObject({
      requests_per_minute: 700,
      update_ticket_per_minute: 2,
      ticket_updates_per_user: 5,
      max_active_jobs: 3,
    });
    expect((await put(subdomain, ids[0] ?? 0, a)).status).toBe(200);
    expect((await put(subdomain, ids[0] ?? 0, a)).status).toBe(200);
    expect((await put(subdomain, ids[0] ?? 0, a)).status).toBe(429);
    await call(`${run.url}/_sandbox/accounts/${subdomain}/rate-limit`, {
      method: 'PUT',
      body: { requests_per_minute: 3, window_ms: 2_000 },
    });
    // A count given without its window gets Zendesk's window back (the chaos soak's burst relies on it).
    const kept = await call(`${run.url}/_sandbox/accounts/${subdomain}/rate-limit`, {
      method: 'PUT',
      body: { requests_per_minute: 400 },
    });
    expect(kept.body.account.limits).toMatchObject({
      requests_per_minute: 400,
      window_ms: 60_000,
      update_ticket_per_minute: 2,
    });
    for (const bad of [
      { update_ticket_per_minute: 0 },
      { ticket_updates_window_ms: -1 },
      { max_active_jobs: 1.5 },
    ]) {
      expect(
        (
          await call(`${run.url}/_sandbox/accounts/${subdomain}/rate-limit`, {
            method: 'PUT',
            body: bad,
          })
        ).status,
      ).toBe(422);
    }
    // Setting a limit starts its window afresh: the refused third update goes through once it is set again.
    await call(`${run.url}/_sandbox/accounts/${subdomain}/rate-limit`, {
      method: 'PUT',
      body: { update_ticket_per_minute: 2 },
    });
    expect((await put(subdomain, ids[0] ?? 0, a)).status).toBe(200);
    // The 429 counts start again on DELETE.
    expect((await refusals(subdomain)).total).toBe(1);
    expect(
      (await call(`${run.url}/_sandbox/accounts/${subdomain}/rate-limited`, { method: 'DELETE' }))
        .status,
    ).toBe(204);
    expect((await refusals(subdomain)).total).toBe(0);
  });

  it('takes the sandbox-wide defaults from createZendeskSandbox', async () => {
    const other = await startSandbox({ limits: { updateTicketPerMinute: 1 } });
    try {
      const token = other.token(other.demo.agentIds[0]);
      const id = other.demo.ticketIds[0];
      const update = () =>
        call(other.api('demo', `tickets/${id}.json`), {
          method: 'PUT',
          token,
          body: { ticket: { additional_tags: ['y'] } },
        });
      expect((await update()).status).toBe(200);
      expect((await update()).status).toBe(429);
    } finally {
      await other.close();
    }
  });
});

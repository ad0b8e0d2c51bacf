import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startReceiver, startSandbox, type Running } from './support';

describe('update_many and job statuses', () => {
  let run: Running;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let agent: string;
  let now = Date.UTC(2026, 10, 1);

  const newTicket = async (subject: string) =>
    (
      await call(`${run.url}/_sandbox/accounts/demo/tickets`, {
        body: { requester_id: run.demo.endUserId, subject, body: 'help' },
      })
    ).body.ticket.id as number;
  const updateMany = (body: unknown, query = '', token = agent) =>
    call(run.api('demo', `tickets/update_many.json${query}`), { method: 'PUT', token, body });
  const jobStatus = async (url: string) => (await call(url, { token: agent })).body.job_status;
  /** Polls the job until it ends, recording each status seen after `first` (the status update_many answered). */
  const follow = async (url: string, first?: string) => {
    const seen: string[] = first === undefined ? [] : [first];
    for (;;) {
      const job = await jobStatus(url);
      if (seen.at(-1) !== job.status) seen.push(job.status);
      if (job.status === 'completed' || job.status === 'failed') return { job, seen };
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const ticket = async (id: number) =>
    (await call(run.api('demo', `tickets/${id}.json`), { token: agent })).body.ticket;

  beforeAll(async () => {
    run = await startSandbox({ clock: () => now, jobs: { startDelayMs: 40, itemDelayMs: 50 } });
    receiver = await startReceiver();
    agent = run.token(run.demo.agentIds[0]);
  });
  afterAll(async () => {
    await run.sandbox.jobsIdle();
    await run.close();
    await receiver.close();
  });

  it('takes a tickets array of individual changes and follows the job queued, working, completed with per-ticket results', async () => {
    const [a, b] = [await newTicket('A'), await newTicket('B')];
    await call(run.api('demo', `tickets/${b}.json`), {
      method: 'PUT',
      token: agent,
      body: { ticket: { tags: ['old', 'keep'] } },
    });
    const answered = await updateMany({
      tickets: [
        {
          id: a,
          comment: { body: 'Bulk note', public: false },
          custom_fields: [
            { id: run.demo.statusFieldId, value: 'incident_status_approval_required' },
          ],
          status: 'pending',
        },
        { id: b, additional_tags: ['added'], remove_tags: ['old'] },
      ],
    });
    expect(answered.status).toBe(200);
    const queued = answered.body.job_status;
    expect(queued).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      job_type: 'bulk_update',
      url: run.api('demo', `job_statuses/${queued.id}.json`),
      total: 2,
      progress: null,
      status: 'queued',
      message: null,
      results: null,
    });
    const { job, seen } = await follow(queued.url, queued.status);
    // Polling may miss the short working phase on a loaded machine; the next test holds it long enough to see.
    expect(seen.filter((status) => status !== 'working')).toEqual(['queued', 'completed']);
    expect(job).toMatchObject({
      id: queued.id,
      total: 2,
      progress: 2,
      status: 'completed',
      message: expect.stringMatching(/^Completed at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000$/),
    });
    expect(job.results).toEqual([
      { id: a, action: 'update', success: true, status: 'Updated' },
      { id: b, action: 'update', success: true, status: 'Updated' },
    ]);
    const first = await ticket(a);
    expect(first.status).toBe('pending');
    expect(first.custom_fields).toContainEqual({
      id: run.demo.statusFieldId,
      value: 'incident_status_approval_required',
    });
    const comments = (await call(run.api('demo', `tickets/${a}/comments.json`), { token: agent }))
      .body.comments;
    expect(comments.at(-1)).toMatchObject({
      body: 'Bulk note',
      public: false,
      author_id: run.demo.agentIds[0],
    });
    expect((await ticket(b)).tags).toEqual(['keep', 'added']);
  });

  it('reports a running job as working with its progress', async () => {
    const slow = await startSandbox({ jobs: { startDelayMs: 0, itemDelayMs: 1_000 } });
    try {
      const token = slow.token(slow.demo.agentIds[0]);
      const answered = await call(slow.api('demo', 'tickets/update_many.json'), {
        method: 'PUT',
        token,
        body: { tickets: slow.demo.ticketIds.map((id) => ({ id, additional_tags: ['slow'] })) },
      });
      let job = answered.body.job_status;
      while (job.status !== 'working') job = (await call(job.url, { token })).body.job_status;
      expect(job.progress).toBeLessThan(job.total);
      expect(job.results).toBeNull();
      await slow.sandbox.jobsIdle();
      job = (await call(job.url, { token })).body.job_status;
      expect(job).toMatchObject({ status: 'completed', progress: slow.demo.ticketIds.length });
    } finally {
      await slow.close();
    }
  });

  it('takes ids= with one ticket change for all of them', async () => {
    const ids = [await newTicket('C'), await newTicket('D'), await newTicket('E')];
    const answered = await updateMany(
      { ticket: { additional_tags: ['bulk_all'], status: 'open' } },
      `?ids=${ids.join(',')}`,
    );
    expect(answered.status).toBe(200);
    expect(answered.body.job_status.total).toBe(3);
    const { job } = await follow(answered.body.job_status.url);
    expect(job.results.map((r: { id: number; success: boolean }) => [r.id, r.success])).toEqual(
      ids.map((id) => [id, true]),
    );
    for (const id of ids)
      expect(await ticket(id)).toMatchObject({
        status: 'open',
        tags: expect.arrayContaining(['bulk_all']),
      });
  });

  it('reports a closed or missing ticket in the results, not as a failed job', async () => {
    const [good, closed] = [await newTicket('G'), await newTicket('H')];
    await call(run.api('demo', `tickets/${closed}.json`), {
      method: 'PUT',
      token: agent,
      body: { ticket: { status: 'closed' } },
    });
    const answered = await updateMany({
      tickets: [
        { id: closed, status: 'open' },
        { id: 99_999, status: 'open' },
        { id: good, additional_tags: ['fine'] },
      ],
    });
    const { job } = await follow(answered.body.job_status.url);
    expect(job.status).toBe('completed');
    expect(job.results).toEqual([
      {
        id: closed,
        index: 0,
        action: 'update',
        success: false,
        status: 'Failed',
        error: 'RecordInvalid',
        details: 'Status: closed prevents ticket update',
      },
      {
        id: 99_999,
        index: 1,
        action: 'update',
        success: false,
        status: 'Failed',
        error: 'RecordNotFound',
        details: 'Not found',
      },
      { id: good, action: 'update', success: true, status: 'Updated' },
    ]);
    expect((await ticket(closed)).status).toBe('closed');
  });

  it('refuses bad requests at once with 400: too many tickets, a missing id, no changes, bad ids', async () => {
    const tooMany = await updateMany({
      tickets: Array.from({ length: 101 }, (_, i) => ({ id: i + 1, status: 'open' })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({
      error: 'TooManyValues',
      description: '101 tickets given; update_many accepts at most 100 per request',
    });
    const tooManyIds = await updateMany(
      { ticket: { status: 'open' } },
      `?ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`,
    );
    expect(tooManyIds.status).toBe(400);
    const missingId = await updateMany({
      tickets: [{ id: 1, status: 'open' }, { status: 'open' }],
    });
    expect(missingId.status).toBe(400);
    expect(missingId.body).toEqual({
      error: 'InvalidEndpoint',
      description: 'tickets[1] needs the id of the ticket to update',
    });
    expect((await updateMany({})).status).toBe(400);
    expect((await updateMany({ tickets: [] })).status).toBe(400);
    expect((await updateMany({ ticket: { status: 'open' } }, '?ids=1,abc')).status).toBe(400);
    expect((await updateMany({}, '?ids=1,2')).status).toBe(400);
    expect((await updateMany({ tickets: [{ id: 1, tags: 'not-an-array' }] })).status).toBe(400);
    // Nothing was queued by any of them.
    expect(
      (await call(run.api('demo', 'job_statuses.json'), { token: agent })).body.job_statuses.every(
        (j: { total: number }) => j.total <= 3,
      ),
    ).toBe(true);
    // Without tickets:write: 403.
    const reader = run.token(run.demo.agentIds[0], ['tickets:read']);
    expect((await updateMany({ tickets: [{ id: 1, status: 'open' }] }, '', reader)).status).toBe(
      403,
    );
  });

  it('runs triggers and webhooks for every ticket a job changes, as for single updates', async () => {
    const admin = run.token(run.demo.adminId);
    const webhook = await call(run.api('demo', 'webhooks'), {
      token: admin,
      body: {
        webhook: {
          name: 'bulk',
          endpoint: receiver.url,
          http_method: 'POST',
          request_format: 'json',
          status: 'active',
          subscriptions: ['conditional_ticket_events'],
        },
      },
    });
    const trigger = await call(run.api('demo', 'triggers.json'), {
      token: admin,
      body: {
        trigger: {
          title: 'Bulk tagged',
          conditions: {
            all: [{ field: 'current_tags', operator: 'includes', value: 'bulk_fire' }],
            any: [],
          },
          actions: [
            {
              field: 'notification_webhook',
              value: [webhook.body.webhook.id, '{"ticketId":{{ticket.id}}}'],
            },
            { field: 'remove_tags', value: 'bulk_fire' },
          ],
        },
      },
    });
    expect(trigger.status).toBe(201);
    const ids = [await newTicket('T1'), await newTicket('T2')];
    const answered = await updateMany({
      tickets: ids.map((id) => ({ id, additional_tags: ['bulk_fire'] })),
    });
    await follow(answered.body.job_status.url);
    await run.sandbox.webhooksIdle();
    const delivered = receiver.received.map(
      (r) => JSON.parse(r.raw.toString('utf8')) as { ticketId: number },
    );
    expect(delivered.map((d) => d.ticketId).sort()).toEqual([...ids].sort());
    for (const id of ids) expect((await ticket(id)).tags).not.toContain('bulk_fire');
    await call(run.api('demo', `triggers/${trigger.body.trigger.id}.json`), {
      method: 'DELETE',
      token: admin,
    });
  });

  it('refuses a job while the account has its limit of queued or running jobs, with 429 and Retry-After, and counts it', async () => {
    // Jobs stay queued for 3 s here, so the first two are still queued when the third arrives.
    const slow = await startSandbox({ jobs: { startDelayMs: 3_000, itemDelayMs: 0 } });
    try {
      const token = slow.token(slow.demo.agentIds[0]);
      const bulk = (tag: string) =>
        call(slow.api('demo', 'tickets/update_many.json'), {
          method: 'PUT',
          token,
          body: { tickets: [{ id: slow.demo.ticketIds[0], additional_tags: [tag] }] },
        });
      await call(`${slow.url}/_sandbox/accounts/demo/rate-limit`, {
        method: 'PUT',
        body: { max_active_jobs: 2 },
      });
      expect([(await bulk('j1')).status, (await bulk('j2')).status]).toEqual([200, 200]);
      const refused = await bulk('j3');
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        error: 'TooManyJobs',
        description: 'Number of allowed queued or running jobs (2) exceeded',
      });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3);
      expect(
        (await call(`${slow.url}/_sandbox/accounts/demo/rate-limited`)).body.by_limit.jobs,
      ).toBe(1);
      await slow.sandbox.jobsIdle();
      expect((await bulk('j4')).status).toBe(200);
      await slow.sandbox.jobsIdle();
      const tags = (
        await call(slow.api('demo', `tickets/${slow.demo.ticketIds[0]}.json`), { token })
      ).body.ticket.tags;
      expect(tags).toEqual(expect.arrayContaining(['j1', 'j2', 'j4']));
      expect(tags).not.toContain('j3');
    } finally {
      await slow.close();
    }
  });

  it('counts each applied ticket of a job against the per-user per-ticket limit, failing only the ticket over it', async () => {
    await call(`${run.url}/_sandbox/accounts/demo/rate-limit`, {
      method: 'PUT',
      body: { ticket_updates_per_user: 2 },
    });
    const [id, other] = [await newTicket('P'), await newTicket('Q')];
    const answered = await updateMany({
      tickets: [
        // refused (422): not an update Zendesk applied, so not counted against the ticket's limit
        { id, comment: { body: 'x', uploads: ['no-such-upload'] } },
        { id, additional_tags: ['p1'] },
        { id, additional_tags: ['p2'] },
        { id, additional_tags: ['p3'] },
        { id: other, additional_tags: ['q'] },
      ],
    });
    const { job } = await follow(answered.body.job_status.url);
    expect(job.results.map((r: { success: boolean }) => r.success)).toEqual([
      false,
      true,
      true,
      false,
      true,
    ]);
    expect(job.results[0]).toMatchObject({ id, index: 0, error: 'RecordInvalid' });
    expect(job.results[3]).toMatchObject({ id, index: 3, error: 'APIRateLimitExceeded' });
    expect((await ticket(id)).tags).not.toContain('p3');
    await call(`${run.url}/_sandbox/accounts/demo/rate-limit`, {
      method: 'PUT',
      body: { ticket_updates_per_user: 30 },
    });
  });

  it('keeps job statuses readable for a day, per account, and lists them', async () => {
    const answered = await updateMany({
      tickets: [{ id: await newTicket('R'), additional_tags: ['r'] }],
    });
    const { id, url } = answered.body.job_status;
    await follow(url);
    const listed = await call(run.api('demo', 'job_statuses.json'), { token: agent });
    expect(listed.body.job_statuses[0].id).toBe(id);
    expect(
      (
        await call(run.api('demo', `job_statuses/show_many.json?ids=${id},nope`), { token: agent })
      ).body.job_statuses.map((j: { id: string }) => j.id),
    ).toEqual([id]);
    expect(
      (
        await call(run.api('demo', 'job_statuses/0123456789abcdef0123456789abcdef.json'), {
          token: agent,
        })
      ).status,
    ).toBe(404);
    run.sandbox.createAccount('elsewhere');
    const stranger = run.sandbox.createUser('elsewhere', {
      name: 'S',
      email: 's@elsewhere.example',
      role: 'agent',
    });
    expect(
      (
        await call(run.api('elsewhere', `job_statuses/${id}.json`), {
          token: run.token(stranger.id, ['read', 'write'], 'elsewhere'),
        })
      ).status,
    ).toBe(404);
    now += 86_400_000 + 1;
    agent = run.token(run.demo.agentIds[0]); // the old token expired with the day
    const gone = await call(url, { token: agent });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'RecordNotFound', description: 'Not found' });
  });

  it('counts job status reads as one endpoint in the API request counter', async () => {
    await call(`${run.url}/_sandbox/accounts/demo/api-requests`, { method: 'DELETE' });
    const answered = await updateMany({
      tickets: [{ id: await newTicket('S'), additional_tags: ['s'] }],
    });
    await follow(answered.body.job_status.url);
    const counts = (await call(`${run.url}/_sandbox/accounts/demo/api-requests`)).body.by_endpoint;
    expect(counts['PUT /api/v2/tickets/update_many']).toBe(1);
    expect(counts['GET /api/v2/job_statuses/{id}']).toBeGreaterThanOrEqual(2);
  });
});

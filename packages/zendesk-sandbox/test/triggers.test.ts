import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, startReceiver, startSandbox, type Received, type Running } from './support';

/** Zendesk's documented algorithm, written here independently of the sandbox's code. */
function verifyZendeskSignature(secret: string, request: Received): boolean {
  const timestamp = String(request.headers['x-zendesk-webhook-signature-timestamp'] ?? '');
  const signature = String(request.headers['x-zendesk-webhook-signature'] ?? '');
  const expected = createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(timestamp, 'utf8'), request.raw]))
    .digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const REPORT_BODY =
  '{"kind":"report","ticketId":{{ticket.id}},"mode":"takedown","requesterEmail":"{{ticket.requester.email}}","requesterName":"{{ticket.requester.name}}"}';

describe('triggers and webhooks', () => {
  let run: Running;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let admin: string;
  let integration: string;
  let webhookId: string;
  let secret: string;

  const bodies = () =>
    receiver.received.map((r) => JSON.parse(r.raw.toString('utf8')) as Record<string, unknown>);
  const settle = () => run.sandbox.webhooksIdle();
  const update = (id: number, ticket: Record<string, unknown>, token = integration) =>
    call(run.api('demo', `tickets/${id}.json`), { method: 'PUT', token, body: { ticket } });

  beforeAll(async () => {
    run = await startSandbox();
    receiver = await startReceiver();
    admin = run.token(run.demo.adminId);
    integration = run.token(run.demo.agentIds[0], ['tickets:read', 'tickets:write', 'users:read']);
    const webhook = await call(run.api('demo', 'webhooks'), {
      token: admin,
      body: {
        webhook: {
          name: 'connector',
          endpoint: receiver.url,
          http_method: 'POST',
          request_format: 'json',
          status: 'active',
          subscriptions: ['conditional_ticket_events'],
        },
      },
    });
    expect(webhook.status).toBe(201);
    webhookId = webhook.body.webhook.id;
    expect(webhookId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    secret = (await call(run.api('demo', `webhooks/${webhookId}/signing_secret`), { token: admin }))
      .body.signing_secret.secret;

    const triggers = [
      {
        title: 'Report threat',
        conditions: {
          all: [
            { field: 'current_tags', operator: 'includes', value: 'incident_submit' },
            {
              field: 'current_tags',
              operator: 'not_includes',
              value: 'incident_linked incident_unlinked',
            },
          ],
        },
        actions: [{ field: 'notification_webhook', value: [webhookId, REPORT_BODY] }],
      },
      {
        title: 'Forward public comment',
        conditions: {
          all: [
            { field: 'update_type', operator: 'is', value: 'Change' },
            { field: 'comment_is_public', operator: 'is', value: 'true' },
            { field: 'current_tags', operator: 'includes', value: 'incident_linked' },
          ],
        },
        actions: [
          {
            field: 'notification_webhook',
            value: [webhookId, '{"kind":"comment","ticketId":{{ticket.id}}}'],
          },
        ],
      },
      {
        title: 'Created',
        conditions: { all: [{ field: 'update_type', operator: 'is', value: 'Create' }] },
        actions: [
          {
            field: 'notification_webhook',
            value: [
              webhookId,
              '{"kind":"created","ticketId":{{ticket.id}},"tags":"{{ticket.tags}}"}',
            ],
          },
        ],
      },
    ];
    for (const trigger of triggers) {
      expect(
        (await call(run.api('demo', 'triggers.json'), { token: admin, body: { trigger } })).status,
      ).toBe(201);
    }
  });
  afterEach(async () => {
    await settle();
    receiver.received.length = 0;
  });
  afterAll(async () => {
    await run.close();
    await receiver.close();
  });

  it('fires the created trigger only when an end user opens a ticket', async () => {
    const created = await call(`${run.url}/_sandbox/accounts/demo/tickets`, {
      body: {
        requester_id: run.demo.endUserId,
        subject: 'Scam site',
        body: 'Please look at https://scam.test',
      },
    });
    expect(created.status).toBe(201);
    await settle();
    expect(bodies()).toEqual([{ kind: 'created', ticketId: created.body.ticket.id, tags: '' }]);
  });

  it('fires the report trigger when an integration adds the tag through the API, signed as Zendesk signs', async () => {
    const ticketId = run.demo.ticketIds[1] as number;
    expect((await update(ticketId, { additional_tags: ['incident_submit'] })).status).toBe(200);
    await settle();
    expect(bodies()).toEqual([
      {
        kind: 'report',
        ticketId,
        mode: 'takedown',
        requesterEmail: 'erin@customer.example',
        requesterName: 'Erin Enduser',
      },
    ]);
    const [request] = receiver.received;
    if (!request) throw new Error('no delivery');
    expect(verifyZendeskSignature(secret, request)).toBe(true);
    expect(verifyZendeskSignature('another-secret', request)).toBe(false);
    expect(request.headers['x-zendesk-webhook-id']).toBe(webhookId);
    expect(request.headers['x-zendesk-account-id']).toBe(
      String(run.sandbox.state.requireAccount('demo').id),
    );
    expect(request.headers['x-zendesk-webhook-invocation-id']).toMatch(/^\d+$/);
    expect(request.headers['x-zendesk-webhook-signature-timestamp']).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    );
    expect(request.headers['content-type']).toMatch(/^application\/json/);
    // A tampered body no longer verifies.
    expect(
      verifyZendeskSignature(secret, {
        ...request,
        raw: Buffer.from(request.raw.toString().replace('takedown', 'monitor')),
      }),
    ).toBe(false);
  });

  it('does not fire the report trigger while incident_linked is present, nor on unrelated updates', async () => {
    const ticketId = run.demo.ticketIds[2] as number;
    await update(ticketId, { additional_tags: ['incident_submit', 'incident_linked'] });
    await update(ticketId, { status: 'pending' });
    await settle();
    expect(bodies()).toEqual([]);
  });

  it('forwards public comments on linked tickets but not internal notes', async () => {
    const ticketId = run.demo.ticketIds[2] as number;
    await update(ticketId, { comment: { body: 'internal only', public: false } });
    await settle();
    expect(bodies()).toEqual([]);
    const reply = await call(`${run.url}/_sandbox/accounts/demo/tickets/${ticketId}/comments`, {
      body: { author_id: run.demo.agentIds[1], body: 'We are on it', public: true },
    });
    expect(reply.status).toBe(201);
    await settle();
    expect(bodies()).toEqual([{ kind: 'comment', ticketId }]);
  });

  it('matches "comment present (public or private)" with not_relevant only when the update has a comment', async () => {
    const any = await call(run.api('demo', 'triggers.json'), {
      token: admin,
      body: {
        trigger: {
          title: 'Any comment',
          conditions: {
            all: [
              { field: 'comment_is_public', operator: 'is', value: 'not_relevant' },
              { field: 'current_tags', operator: 'includes', value: 'watch_all' },
            ],
          },
          actions: [
            {
              field: 'notification_webhook',
              value: [webhookId, '{"kind":"any_comment","ticketId":{{ticket.id}}}'],
            },
          ],
        },
      },
    });
    const ticketId = run.demo.ticketIds[1] as number;
    await update(ticketId, { additional_tags: ['watch_all'] });
    await update(ticketId, { comment: { body: 'private', public: false } });
    await update(ticketId, { comment: { body: 'public', public: true } });
    await settle();
    expect(bodies().filter((b) => b.kind === 'any_comment')).toEqual([
      { kind: 'any_comment', ticketId },
      { kind: 'any_comment', ticketId },
    ]);
    await call(run.api('demo', `triggers/${any.body.trigger.id}.json`), {
      method: 'DELETE',
      token: admin,
    });
  });

  it('escapes placeholder values so the JSON body stays valid', async () => {
    const created = await call(`${run.url}/_sandbox/accounts/demo/tickets`, {
      body: {
        requester: { name: 'Quote "Q" Person', email: 'q@customer.example' },
        subject: 'x',
        body: 'y',
        tags: ['incident_submit'],
      },
    });
    await settle();
    const report = bodies().find((b) => b.kind === 'report');
    expect(report).toMatchObject({
      ticketId: created.body.ticket.id,
      requesterName: 'Quote "Q" Person',
    });
  });

  it('retries a 409 up to three times with the same invocation id, and does not retry a 500', async () => {
    const flaky = await startReceiver([{ status: 409 }, { status: 409 }]);
    const failing = await startReceiver([{ status: 500 }]);
    try {
      const patch = (endpoint: string) =>
        call(run.api('demo', `webhooks/${webhookId}`), {
          method: 'PATCH',
          token: admin,
          body: { webhook: { endpoint } },
        });
      await patch(flaky.url);
      await update(run.demo.ticketIds[0] as number, { additional_tags: ['incident_submit'] });
      await settle();
      expect(flaky.received).toHaveLength(3);
      expect(
        new Set(flaky.received.map((r) => r.headers['x-zendesk-webhook-invocation-id'])).size,
      ).toBe(1);
      expect(flaky.received.every((r) => verifyZendeskSignature(secret, r))).toBe(true);

      await patch(failing.url);
      await update(run.demo.ticketIds[0] as number, { remove_tags: ['incident_submit'] });
      await update(run.demo.ticketIds[0] as number, { additional_tags: ['incident_submit'] });
      await settle();
      expect(failing.received).toHaveLength(1);
      const deliveries = (
        await call(`${run.url}/_sandbox/accounts/demo/webhook-deliveries?wait=true`)
      ).body.deliveries as { state: string; endpoint: string }[];
      expect(deliveries.filter((d) => d.endpoint === failing.url).map((d) => d.state)).toEqual([
        'failed',
      ]);
    } finally {
      await call(run.api('demo', `webhooks/${webhookId}`), {
        method: 'PATCH',
        token: admin,
        body: { webhook: { endpoint: receiver.url } },
      });
      await flaky.close();
      await failing.close();
    }
  });

  it('retries a 429 that names a short Retry-After', async () => {
    const limited = await startReceiver([{ status: 429, headers: { 'Retry-After': '2' } }]);
    try {
      await call(run.api('demo', `webhooks/${webhookId}`), {
        method: 'PATCH',
        token: admin,
        body: { webhook: { endpoint: limited.url } },
      });
      await update(run.demo.ticketIds[0] as number, { remove_tags: ['incident_submit'] });
      await update(run.demo.ticketIds[0] as number, { additional_tags: ['incident_submit'] });
      await settle();
      expect(limited.received).toHaveLength(2);
    } finally {
      await call(run.api('demo', `webhooks/${webhookId}`), {
        method: 'PATCH',
        token: admin,
        body: { webhook: { endpoint: receiver.url } },
      });
      await limited.close();
    }
  });

  it('records a timed-out delivery as failed without retrying it', async () => {
    const { createServer } = await import('node:http');
    let hits = 0;
    const silent = createServer(() => {
      hits += 1; // never answers
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
    try {
      await call(run.api('demo', `webhooks/${webhookId}`), {
        method: 'PATCH',
        token: admin,
        body: { webhook: { endpoint } },
      });
      await update(run.demo.ticketIds[0] as number, { remove_tags: ['incident_submit'] });
      await update(run.demo.ticketIds[0] as number, { additional_tags: ['incident_submit'] });
      await settle();
      expect(hits).toBe(1);
      const deliveries = (await call(`${run.url}/_sandbox/accounts/demo/webhook-deliveries`)).body
        .deliveries as { endpoint: string; state: string; attempts: { error: string | null }[] }[];
      const mine = deliveries.filter((d) => d.endpoint === endpoint);
      expect(mine.map((d) => d.state)).toEqual(['failed']);
      expect(mine[0]?.attempts[0]?.error).toBeTruthy();
    } finally {
      await call(run.api('demo', `webhooks/${webhookId}`), {
        method: 'PATCH',
        token: admin,
        body: { webhook: { endpoint: receiver.url } },
      });
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('delivers an injected duplicate with the same invocation id and body', async () => {
    await call(`${run.url}/_sandbox/accounts/demo/webhook-duplicates`, { body: { count: 1 } });
    await update(run.demo.ticketIds[0] as number, { remove_tags: ['incident_submit'] });
    await update(run.demo.ticketIds[0] as number, { additional_tags: ['incident_submit'] });
    await settle();
    expect(receiver.received).toHaveLength(2);
    const [a, b] = receiver.received;
    expect(a?.headers['x-zendesk-webhook-invocation-id']).toBe(
      b?.headers['x-zendesk-webhook-invocation-id'],
    );
    expect(a?.raw.equals(b?.raw ?? Buffer.alloc(0))).toBe(true);
  });

  it('signs with the new secret after a reset', async () => {
    const reset = await call(run.api('demo', `webhooks/${webhookId}/signing_secret`), {
      method: 'POST',
      token: admin,
    });
    expect(reset.status).toBe(201);
    const fresh = reset.body.signing_secret.secret as string;
    expect(fresh).not.toBe(secret);
    await update(run.demo.ticketIds[0] as number, { remove_tags: ['incident_submit'] });
    await update(run.demo.ticketIds[0] as number, { additional_tags: ['incident_submit'] });
    await settle();
    const [request] = receiver.received;
    if (!request) throw new Error('no delivery');
    expect(verifyZendeskSignature(fresh, request)).toBe(true);
    expect(verifyZendeskSignature(secret, request)).toBe(false);
    secret = fresh;
  });

  it('signs a test delivery for a webhook not yet created with the public test secret', async () => {
    const test = await call(run.api('demo', 'webhooks/test'), {
      token: admin,
      body: {
        request: {
          endpoint: receiver.url,
          http_method: 'POST',
          request_format: 'json',
          payload: '{"kind":"test"}',
        },
      },
    });
    expect(test.status).toBe(200);
    expect(test.body.response.status).toBe(200);
    const [request] = receiver.received;
    if (!request) throw new Error('no delivery');
    expect(verifyZendeskSignature('dGhpc19zZWNyZXRfaXNfZm9yX3Rlc3Rpbmdfb25seQ==', request)).toBe(
      true,
    );
  });

  it("sends the webhook's authentication and custom headers, and signs a test of an existing webhook with its secret", async () => {
    const created = await call(run.api('demo', 'webhooks'), {
      token: admin,
      body: {
        webhook: {
          name: 'with auth',
          endpoint: receiver.url,
          http_method: 'POST',
          request_format: 'json',
          status: 'active',
          subscriptions: ['conditional_ticket_events'],
          authentication: {
            type: 'bearer_token',
            data: { token: 'connector-token' },
            add_position: 'header',
          },
          custom_headers: { 'X-Custom': 'yes' },
        },
      },
    });
    expect(created.body.webhook.authentication).toEqual({
      type: 'bearer_token',
      add_position: 'header',
    });
    const id = created.body.webhook.id as string;
    const own = (await call(run.api('demo', `webhooks/${id}/signing_secret`), { token: admin }))
      .body.signing_secret.secret as string;
    const test = await call(run.api('demo', 'webhooks/test'), {
      token: admin,
      body: { webhook_id: id, request: { endpoint: receiver.url, payload: '{}' } },
    });
    expect(test.body.response.status).toBe(200);
    const [request] = receiver.received;
    if (!request) throw new Error('no delivery');
    expect(request.headers.authorization).toBe('Bearer connector-token');
    expect(request.headers['x-custom']).toBe('yes');
    expect(verifyZendeskSignature(own, request)).toBe(true);
    await call(run.api('demo', `webhooks/${id}`), { method: 'DELETE', token: admin });
  });

  it('rejects a trigger whose condition the sandbox cannot evaluate, with RecordInvalid details', async () => {
    const bad = await call(run.api('demo', 'triggers.json'), {
      token: admin,
      body: {
        trigger: {
          title: 'x',
          conditions: { all: [{ field: 'organization_id', operator: 'is', value: '1' }] },
          actions: [{ field: 'status', value: 'open' }],
        },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toBe('RecordInvalid');
    expect(bad.body.details.conditions[0].description).toMatch(/organization_id/);
  });

  it('lists, updates and deletes triggers; a deactivated trigger stops firing', async () => {
    const list = await call(run.api('demo', 'triggers.json'), { token: admin });
    const created = (list.body.triggers as { id: number; title: string }[]).find(
      (t) => t.title === 'Created',
    );
    if (!created) throw new Error('missing trigger');
    const off = await call(run.api('demo', `triggers/${created.id}.json`), {
      method: 'PUT',
      token: admin,
      body: { trigger: { active: false } },
    });
    expect(off.body.trigger.active).toBe(false);
    await call(`${run.url}/_sandbox/accounts/demo/tickets`, {
      body: { requester_id: run.demo.endUserId, subject: 'quiet', body: 'no trigger' },
    });
    await settle();
    expect(bodies()).toEqual([]);
    expect(
      (
        await call(run.api('demo', `triggers/${created.id}.json`), {
          method: 'DELETE',
          token: admin,
        })
      ).status,
    ).toBe(204);
    expect(
      (await call(run.api('demo', `triggers/${created.id}.json`), { token: admin })).status,
    ).toBe(404);
  });

  it('runs trigger actions in a cycle: a tag-removing trigger fires once and other triggers see the result', async () => {
    const remover = await call(run.api('demo', 'triggers.json'), {
      token: admin,
      body: {
        trigger: {
          title: 'Consume escalate tag',
          position: 0,
          conditions: { all: [{ field: 'current_tags', operator: 'includes', value: 'escalate' }] },
          actions: [
            { field: 'remove_tags', value: 'escalate' },
            { field: 'current_tags', value: 'escalated' },
          ],
        },
      },
    });
    expect(remover.status).toBe(201);
    const result = await update(run.demo.ticketIds[1] as number, { additional_tags: ['escalate'] });
    expect(result.body.ticket.tags).toContain('escalated');
    expect(result.body.ticket.tags).not.toContain('escalate');
  });
});

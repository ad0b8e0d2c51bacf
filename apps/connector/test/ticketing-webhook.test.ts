import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signZendeskWebhook } from '@incident-desk/zendesk-api';
import { ticketingWebhookRouter } from '../src/http/ticketing-webhook';
import { TICKET_EVENT_QUEUE } from '../src/jobs/ticket-event-job';
import { startReceiver, TEST_ACCOUNT as ACCOUNT, type ReceiverHarness } from './support/receiver';
import { backends } from './support/test-database';

const SECRET = 'zendesk-webhook-secret';

describe.each(backends)('POST /ticketing/webhook on %s', (backend) => {
  let harness: ReceiverHarness;
  let url: string;

  beforeAll(async () => {
    harness = await startReceiver(backend, [TICKET_EVENT_QUEUE], (inbox) =>
      ticketingWebhookRouter({
        inbox,
        accounts: {
          find: async (id) => (id === ACCOUNT ? { accountId: ACCOUNT, secrets: [SECRET] } : null),
        },
        bodyLimitBytes: 4 * 1024,
      }),
    );
    url = `${harness.baseUrl}/ticketing/webhook?account=${ACCOUNT}`;
  });

  afterAll(() => harness.close());

  const counts = () => harness.counts(TICKET_EVENT_QUEUE);
  let invocation = 0;

  function post(
    body: unknown,
    {
      secret = SECRET,
      timestamp,
      target = url,
      invocationId,
    }: { secret?: string; timestamp?: Date; target?: string; invocationId?: string } = {},
  ) {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    invocation += 1;
    const headers = signZendeskWebhook({
      secret,
      rawBody: raw,
      ...(timestamp ? { timestamp } : {}),
    });
    return fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-zendesk-webhook-invocation-id': invocationId ?? `inv-${backend}-${invocation}`,
        ...headers.headers,
      },
      body: raw,
    });
  }

  async function status(response: Response) {
    return {
      code: response.status,
      body: (await response.json()) as { status?: string; error?: { code: string } },
    };
  }

  it('enqueues a report once per ticket and mode, whatever Zendesk redelivers', async () => {
    const before = await counts();
    const report = {
      kind: 'report',
      ticketId: '101',
      mode: 'takedown',
      requesterEmail: 'victim@example.com',
    };
    expect((await status(await post(report))).body).toEqual({ status: 'accepted' });
    expect((await status(await post(report))).body).toEqual({ status: 'duplicate' });
    expect((await status(await post({ ...report, mode: 'monitor' }))).body).toEqual({
      status: 'accepted',
    });
    expect(await counts()).toEqual({ receipts: before.receipts + 2, jobs: before.jobs + 2 });
    const receipt = await harness.db.prisma.webhookReceipt.findFirstOrThrow({
      where: { dedupeKey: `${ACCOUNT}:ticket-report:101:takedown` },
    });
    const [job] = await harness.boss.findJobs(TICKET_EVENT_QUEUE, { id: receipt.id });
    expect(job?.data).toMatchObject({
      accountId: ACCOUNT,
      body: { kind: 'report', ticketId: 101, mode: 'takedown' },
    });
    expect(job?.singletonKey).toBe(`${ACCOUNT}:101`);
  });

  it("keeps only the contract's identifiers of a delivery: an unknown field is not stored", async () => {
    const report = {
      kind: 'report',
      ticketId: '103',
      mode: 'takedown',
      requesterEmail: 'victim@example.com',
      padding: 'x'.repeat(3_000),
    };
    expect((await status(await post(report))).body).toEqual({ status: 'accepted' });
    const receipt = await harness.db.prisma.webhookReceipt.findFirstOrThrow({
      where: { dedupeKey: `${ACCOUNT}:ticket-report:103:takedown` },
    });
    expect(receipt.payload).toEqual({
      kind: 'report',
      ticketId: 103,
      mode: 'takedown',
      requesterEmail: 'victim@example.com',
    });
    expect(receipt.rawBody).toBeNull();
    const [job] = await harness.boss.findJobs(TICKET_EVENT_QUEUE, { id: receipt.id });
    expect(JSON.stringify(job?.data)).not.toContain('xxxx');
  });

  it('deduplicates comments and actions on their signed body, whatever the invocation id', async () => {
    const comment = {
      kind: 'comment',
      ticketId: 102,
      updatedAt: '2026-11-21T10:00:00Z',
      commentId: '9001',
    };
    // Zendesk's retry: the same invocation, re-signed with a later timestamp
    const retried = { invocationId: 'inv-comment' };
    expect((await status(await post(comment, retried))).body.status).toBe('accepted');
    expect(
      (await status(await post(comment, { ...retried, timestamp: new Date(Date.now() + 5_000) })))
        .body.status,
    ).toBe('duplicate');
    // a second reply within the same second: same updated_at, another comment id
    expect((await status(await post({ ...comment, commentId: '9002' }))).body.status).toBe(
      'accepted',
    );
    // without the comment id (a trigger from before it was added), the firing update is the key
    const later = { kind: 'comment', ticketId: 102, updatedAt: '2026-11-21T10:05:00Z' };
    expect((await status(await post(later, { invocationId: '' }))).body.status).toBe('accepted');
    expect((await status(await post(later, { invocationId: '' }))).body.status).toBe('duplicate');

    const action = {
      kind: 'action',
      ticketId: 102,
      action: 'tkd',
      updatedAt: '2026-11-21T10:00:00Z',
    };
    expect((await status(await post(action))).body.status).toBe('accepted');
    expect((await status(await post(action))).body.status).toBe('duplicate');
    expect(
      (await status(await post({ ...action, updatedAt: '2026-11-21T10:00:01Z' }))).body.status,
    ).toBe('accepted');
  });

  it('takes the same signed bytes sent with three invocation ids for one delivery', async () => {
    const before = await counts();
    const raw = JSON.stringify({
      kind: 'action',
      ticketId: 105,
      action: 'tkd',
      updatedAt: '2026-11-21T11:00:00Z',
    });
    const signed = signZendeskWebhook({ secret: SECRET, rawBody: raw });
    const outcomes: (string | undefined)[] = [];
    for (const invocationId of ['inv-replay-1', 'inv-replay-2', 'inv-replay-3']) {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-zendesk-webhook-invocation-id': invocationId,
          ...signed.headers,
        },
        body: raw,
      });
      outcomes.push((await status(response)).body.status);
    }
    expect(outcomes).toEqual(['accepted', 'duplicate', 'duplicate']);
    expect(await counts()).toEqual({ receipts: before.receipts + 1, jobs: before.jobs + 1 });
  });

  it('refuses a comment or action that names no occurrence', async () => {
    const before = await counts();
    for (const body of [
      { kind: 'comment', ticketId: 106 },
      { kind: 'comment', ticketId: 106, commentId: '' },
      { kind: 'action', ticketId: 106, action: 'tkd' },
    ]) {
      const response = await status(await post(body));
      expect(response.code, JSON.stringify(body)).toBe(400);
      expect(response.body.error?.code).toBe('missing_occurrence');
    }
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['a wrong secret', { secret: 'other' }, 401, 'signature_mismatch'],
    ['a stale timestamp', { timestamp: new Date(Date.now() - 3_600_000) }, 400, 'stale_timestamp'],
    [
      'a future timestamp',
      { timestamp: new Date(Date.now() + 3_600_000) },
      400,
      'future_timestamp',
    ],
  ])('rejects %s and enqueues nothing', async (_name, options, code, reason) => {
    const before = await counts();
    const response = await status(
      await post({ kind: 'comment', ticketId: 103, updatedAt: 'x' }, options),
    );
    expect(response).toEqual({
      code,
      body: { error: { code: reason, message: expect.any(String) } },
    });
    expect(await counts()).toEqual(before);
  });

  it('rejects missing signature headers, an unknown account, bad bodies and wrong content types', async () => {
    const before = await counts();
    const plain = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(plain.status).toBe(401);
    expect(
      (await post({ kind: 'comment', ticketId: 1 }, { target: url.replace(ACCOUNT, 'nobody') }))
        .status,
    ).toBe(401);
    for (const bad of [
      '{"kind":"report",',
      { kind: 'report', ticketId: 104, mode: 'destroy' },
      { kind: 'report', ticketId: 'abc', mode: 'takedown' },
      { kind: 'comment' },
      { kind: 'unknown', ticketId: 1 },
    ]) {
      const response = await status(await post(bad));
      expect(response.code, JSON.stringify(bad)).toBe(400);
    }
    const text = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(text.status).toBe(415);
    expect((await post({ kind: 'comment', ticketId: 1, updatedAt: 'x'.repeat(5000) })).status).toBe(
      413,
    );
    expect(await counts()).toEqual(before);
  });

  it('names the offending field in a validation error', async () => {
    const response = await status(await post({ kind: 'report', ticketId: 104, mode: 'destroy' }));
    expect(response.body.error?.code).toBe('invalid_body');
    expect(JSON.stringify(response.body)).toContain('mode');
  });
});

describe.each(backends)('each account’s rate of Zendesk deliveries on %s', (backend) => {
  const OTHER = '00000000-0000-4000-8000-000000000002';
  const LIMIT = { perMinute: 60, burst: 5 };
  let harness: ReceiverHarness;
  let clock = Date.parse('2026-12-01T09:00:00Z');
  let ticket = 1000;

  beforeAll(async () => {
    harness = await startReceiver(backend, [TICKET_EVENT_QUEUE], (inbox) =>
      ticketingWebhookRouter({
        inbox,
        accounts: {
          find: async (id) =>
            id === ACCOUNT || id === OTHER ? { accountId: id, secrets: [SECRET] } : null,
        },
        deliveryLimit: LIMIT,
        now: () => new Date(clock),
      }),
    );
    await harness.db.prisma.account.create({ data: { id: OTHER, zendeskSubdomain: 'other' } });
  });
  afterAll(() => harness.close());

  function deliver(account: string, extra: Record<string, unknown> = {}, secret = SECRET) {
    ticket += 1;
    const raw = JSON.stringify({
      kind: 'report',
      ticketId: String(ticket),
      mode: 'takedown',
      requesterEmail: 'victim@example.com',
      ...extra,
    });
    const { headers } = signZendeskWebhook({ secret, rawBody: raw, timestamp: new Date(clock) });
    return fetch(`${harness.baseUrl}/ticketing/webhook?account=${account}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: raw,
    });
  }
  const receiptsOf = (accountId: string) =>
    harness.db.prisma.webhookReceipt.count({ where: { accountId } });

  it('answers a flood beyond the limit 429 with Retry-After, stores nothing past it, and gives the allowance back as time passes', async () => {
    const flood = [];
    for (let i = 0; i < LIMIT.burst + 3; i += 1) flood.push(await deliver(ACCOUNT));
    expect(flood.map((response) => response.status)).toEqual([
      ...Array(LIMIT.burst).fill(200),
      429,
      429,
      429,
    ]);
    const refused = flood.at(-1)!;
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      error: {
        code: 'rate_limited',
        message: expect.stringContaining('60 a minute (bursts of 5)'),
        retryAfterSeconds: 1,
      },
    });
    expect(await receiptsOf(ACCOUNT)).toBe(LIMIT.burst);

    // another account, at the same moment, is not held back by the first one's flood
    expect((await deliver(OTHER)).status).toBe(200);
    expect(await receiptsOf(OTHER)).toBe(1);

    // one delivery a second comes back (60 a minute), and no more
    clock += 1_000;
    expect((await deliver(ACCOUNT)).status).toBe(200);
    expect((await deliver(ACCOUNT)).status).toBe(429);
    // after a quiet minute the whole burst is back, never more
    clock += 60_000;
    const after = [];
    for (let i = 0; i < LIMIT.burst + 1; i += 1) after.push((await deliver(ACCOUNT)).status);
    expect(after).toEqual([...Array(LIMIT.burst).fill(200), 429]);
    expect(await receiptsOf(ACCOUNT)).toBe(2 * LIMIT.burst + 1);
  });

  it('spends nothing of an account’s allowance on deliveries whose signature fails', async () => {
    clock += 60_000;
    for (let i = 0; i < 3 * LIMIT.burst; i += 1)
      expect((await deliver(OTHER, {}, 'not-the-secret')).status).toBe(401);
    const before = await receiptsOf(OTHER);
    for (let i = 0; i < LIMIT.burst; i += 1) expect((await deliver(OTHER)).status).toBe(200);
    expect(await receiptsOf(OTHER)).toBe(before + LIMIT.burst);
  });

  it('does not store an unknown 60 kB field of a delivery (within the default 64 KiB body)', async () => {
    clock += 60_000;
    const response = await deliver(ACCOUNT, { padding: 'x'.repeat(60_000) });
    expect(response.status).toBe(200);
    const receipt = await harness.db.prisma.webhookReceipt.findFirstOrThrow({
      where: { dedupeKey: `${ACCOUNT}:ticket-report:${ticket}:takedown` },
    });
    expect(receipt.payload).toEqual({
      kind: 'report',
      ticketId: ticket,
      mode: 'takedown',
      requesterEmail: 'victim@example.com',
    });
    expect(receipt.rawBody).toBeNull();
    const [job] = await harness.boss.findJobs(TICKET_EVENT_QUEUE, { id: receipt.id });
    expect(JSON.stringify(job?.data)).not.toContain('xxxx');
  });
});

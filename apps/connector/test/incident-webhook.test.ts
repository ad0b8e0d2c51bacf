import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '@incident-desk/incident-api';
import { incidentWebhookRouter } from '../src/http/incident-webhook';
import { INCIDENT_EVENT_QUEUE, type IncidentEventJob } from '../src/jobs/incident-event-job';
import { parseIncidentEvent } from '../src/sync/incident-events/parse-incident-event';
import { startReceiver, TEST_ACCOUNT as ACCOUNT, type ReceiverHarness } from './support/receiver';
import { backends } from './support/test-database';

const OLD_SECRET = 'whsec_old';
const SECRET = 'whsec_current';

describe.each(backends)('POST /webhooks/incident on %s', (backend) => {
  let harness: ReceiverHarness;
  let url: string;

  beforeAll(async () => {
    harness = await startReceiver(backend, [INCIDENT_EVENT_QUEUE], (inbox) =>
      incidentWebhookRouter({
        inbox,
        subscriptions: {
          find: async (id) =>
            id === 'sub-1' ? { accountId: ACCOUNT, secrets: [OLD_SECRET, SECRET] } : null,
        },
        bodyLimitBytes: 8 * 1024,
      }),
    );
    url = `${harness.baseUrl}/webhooks/incident?subscription=sub-1`;
  });

  afterAll(() => harness.close());

  let counter = 0;
  function event(overrides: Record<string, unknown> = {}): string {
    counter += 1;
    return JSON.stringify({
      id: `evt_${backend}_${counter}`,
      event: 'incident.status_changed',
      timestamp: new Date().toISOString(),
      clientId: 'client-1',
      data: { incidentId: `inc_${counter}`, status: 'takedown_in_progress' },
      ...overrides,
    });
  }

  function post(
    body: string,
    headers: Record<string, string> = signWebhook({ secret: SECRET, body }),
    target = url,
  ) {
    return fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  }

  const counts = () => harness.counts(INCIDENT_EVENT_QUEUE);

  it.runIf(backend === 'pglite')(
    "acknowledges a delivery ahead of the statements a busy worker has waiting on PGlite's one connection",
    async () => {
      const db = harness.db;
      if (db.backend !== 'pglite') return;
      let done = 0;
      const backlog = Array.from({ length: 200 }, () =>
        db.pglite.query('SELECT 1 AS n FROM pg_sleep(0.005)').then(() => (done += 1)),
      );
      const response = await post(event());
      const doneWhenAnswered = done;
      expect(response.status).toBe(200);
      await Promise.all(backlog);
      // in arrival order it would have waited for all 200
      expect(doneWhenAnswered).toBeLessThan(200);
    },
  );

  it('accepts a signed event, stores its receipt and enqueues one job', async () => {
    const before = await counts();
    const body = event();
    const response = await post(body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'accepted' });
    expect(await counts()).toEqual({ receipts: before.receipts + 1, jobs: before.jobs + 1 });
    const receipt = await harness.db.prisma.webhookReceipt.findFirstOrThrow({
      where: { dedupeKey: `${ACCOUNT}:evt_${backend}_${counter}` },
    });
    expect(receipt.accountId).toBe(ACCOUNT);
    expect(receipt.payload).toEqual(JSON.parse(body));
    const [job] = await harness.boss.findJobs<{ accountId: string; event: unknown }>(
      INCIDENT_EVENT_QUEUE,
      {
        id: receipt.id,
      },
    );
    // the subscription (one per client) it came through, for per-client delivery health
    expect(job?.data).toMatchObject({
      accountId: ACCOUNT,
      subscriptionId: 'sub-1',
      event: JSON.parse(body),
    });
    expect(job?.singletonKey).toBe(`${ACCOUNT}:inc_${counter}`);
  });

  it('accepts a delivery signed with an older secret that is still valid', async () => {
    const body = event();
    expect((await post(body, signWebhook({ secret: OLD_SECRET, body }))).status).toBe(200);
  });

  it('answers a redelivery 200 without enqueuing it again', async () => {
    const body = event();
    expect(await (await post(body)).json()).toEqual({ status: 'accepted' });
    const before = await counts();
    const again = await post(body);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ status: 'duplicate' });
    expect(await counts()).toEqual(before);
  });

  it('deduplicates an event without id on the digest of its envelope', async () => {
    const body = JSON.stringify({
      event: 'incident.takedown_updated',
      data: { incidentId: `inc_noid_${backend}` },
    });
    expect(await (await post(body)).json()).toEqual({ status: 'accepted' });
    expect(await (await post(body)).json()).toEqual({ status: 'duplicate' });
  });

  it('dedupes an event without id on the ref its job reads: one hash for receiver and job', async () => {
    const incidentId = `inc_ref_${backend}`;
    const timestamp = '2030-01-01T00:00:00Z';
    const body = JSON.stringify({
      event: 'incident.history_created',
      timestamp,
      data: { incidentId, historyEntry: { message: 'same event' } },
    });
    // the same event sent again, its keys in another order and spaced out
    const resent = JSON.stringify(
      {
        data: { historyEntry: { message: 'same event' }, incidentId },
        timestamp,
        event: 'incident.history_created',
      },
      null,
      2,
    );
    const other = body.replace('same event', 'another event');
    expect(await (await post(body)).json()).toEqual({ status: 'accepted' });
    expect(await (await post(resent)).json()).toEqual({ status: 'duplicate' });
    expect(await (await post(other)).json()).toEqual({ status: 'accepted' });

    const jobs = (await harness.boss.findJobs<IncidentEventJob>(INCIDENT_EVENT_QUEUE)).filter(
      (job) =>
        (job.data.event.data as { incidentId?: unknown } | undefined)?.incidentId === incidentId,
    );
    expect(jobs).toHaveLength(2);
    const refs = new Set<string>();
    for (const job of jobs) {
      // the job reads its event from the queue's copy, as the worker does
      const parsed = parseIncidentEvent(job.data.event, job.data.receivedAt);
      if (!parsed.ok) throw new Error(`unreadable event: ${parsed.reason}`);
      expect(parsed.event.ref).toMatch(/^sha256:[0-9a-f]{32}$/);
      const receipt = await harness.db.prisma.webhookReceipt.findUniqueOrThrow({
        where: { id: job.id },
      });
      expect(receipt.dedupeKey).toBe(`${ACCOUNT}:${parsed.event.ref}`);
      refs.add(parsed.event.ref);
    }
    // two events, two refs
    expect(refs.size).toBe(2);
  });

  it('group-commits concurrent deliveries: each accepted once, duplicates inside a batch suppressed', async () => {
    const before = await counts();
    const bodies = Array.from({ length: 40 }, () => event());
    const responses = await Promise.all(
      [...bodies, ...bodies.slice(0, 10)].map((body) => post(body)),
    );
    const statuses = await Promise.all(
      responses.map(async (r) => ((await r.json()) as { status: string }).status),
    );
    expect(statuses.filter((s) => s === 'accepted')).toHaveLength(40);
    expect(statuses.filter((s) => s === 'duplicate')).toHaveLength(10);
    expect(await counts()).toEqual({ receipts: before.receipts + 40, jobs: before.jobs + 40 });
  });

  it.each([
    [
      'a wrong signature',
      (body: string) => signWebhook({ secret: 'whsec_other', body }),
      401,
      'bad_signature',
    ],
    ['no signature headers', () => ({}), 401, 'missing_headers'],
    [
      'a stale timestamp',
      (body: string) =>
        signWebhook({ secret: SECRET, body, timestamp: Math.floor(Date.now() / 1000) - 3600 }),
      400,
      'stale_timestamp',
    ],
    [
      'a future timestamp',
      (body: string) =>
        signWebhook({ secret: SECRET, body, timestamp: Math.floor(Date.now() / 1000) + 3600 }),
      400,
      'future_timestamp',
    ],
  ])('rejects %s and enqueues nothing', async (_name, sign, status, code) => {
    const before = await counts();
    const body = event();
    const response = await post(body, sign(body));
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
    expect(await counts()).toEqual(before);
  });

  it('rejects a body tampered with after signing', async () => {
    const body = event();
    const headers = signWebhook({ secret: SECRET, body });
    expect((await post(body.replace('takedown_in_progress', 'closed'), headers)).status).toBe(401);
  });

  it('rejects an unknown subscription, malformed JSON, a non-event, a wrong content type and an oversized body', async () => {
    const before = await counts();
    const body = event();
    expect(
      (await post(body, signWebhook({ secret: SECRET, body }), url.replace('sub-1', 'sub-9')))
        .status,
    ).toBe(401);
    expect((await post('{"event": "incident.created",')).status).toBe(400);
    expect((await post('[1,2]')).status).toBe(400);
    const text = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...signWebhook({ secret: SECRET, body }) },
      body,
    });
    expect(text.status).toBe(415);
    const big = JSON.stringify({
      event: 'incident.created',
      data: { incidentId: 'x', pad: 'x'.repeat(10_000) },
    });
    expect((await post(big)).status).toBe(413);
    expect(await counts()).toEqual(before);
  });

  it('records and acknowledges an event type it does not know', async () => {
    const response = await post(event({ event: 'incident.renamed' }));
    expect(await response.json()).toEqual({ status: 'accepted' });
  });
});

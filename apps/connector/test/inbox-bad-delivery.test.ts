// One bad delivery never fails the deliveries beside it. The inbox writes
// concurrent deliveries in one INSERT; a payload holding `\u0000` (22P05), a lone surrogate, or
// nesting deep enough to overflow JSON.stringify used to fail the whole group, and every other
// account's delivery in it was answered 503, on every retry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '@incident-desk/incident-api';
import { incidentWebhookRouter } from '../src/http/incident-webhook';
import { INCIDENT_EVENT_QUEUE } from '../src/jobs/incident-event-job';
import { createInbox, type InboxEntry } from '../src/ingest/inbox';
import { UnstorableDeliveryError } from '../src/ingest/storable';
import { startReceiver, TEST_ACCOUNT as ACCOUNT_A, type ReceiverHarness } from './support/receiver';
import { backends } from './support/test-database';

const ACCOUNT_B = '00000000-0000-4000-8000-0000000000b2';
const SECRET_A = 'whsec_account_a';
const SECRET_B = 'whsec_account_b';

describe.each(backends)('a bad delivery among good ones on %s', (backend) => {
  let harness: ReceiverHarness;
  let baseUrl: string;

  beforeAll(async () => {
    harness = await startReceiver(backend, [INCIDENT_EVENT_QUEUE], (inbox) =>
      incidentWebhookRouter({
        inbox,
        subscriptions: {
          find: async (id) =>
            id === 'sub-a'
              ? { accountId: ACCOUNT_A, secrets: [SECRET_A] }
              : id === 'sub-b'
                ? { accountId: ACCOUNT_B, secrets: [SECRET_B] }
                : null,
        },
      }),
    );
    await harness.db.prisma.account.create({ data: { id: ACCOUNT_B, zendeskSubdomain: 'other' } });
    baseUrl = harness.baseUrl;
  });

  afterAll(() => harness.close());

  function post(subscription: 'sub-a' | 'sub-b', body: string) {
    const secret = subscription === 'sub-a' ? SECRET_A : SECRET_B;
    return fetch(`${baseUrl}/webhooks/incident?subscription=${subscription}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signWebhook({ secret, body }) },
      body,
    });
  }

  const envelope = (id: string, data: string) =>
    `{"id":"${id}","event":"incident.history_entry","timestamp":"2026-11-23T10:00:00Z","data":${data}}`;

  it('stores the good deliveries of one account while another sends NUL, lone surrogates and deep nesting', async () => {
    const good = Array.from({ length: 12 }, (_, i) =>
      envelope(`evt_${backend}_good_${i}`, `{"incidentId":"inc_a_${i}","message":"fine ${i}"}`),
    );
    // JSON escapes as the sender wrote them: valid JSON that PostgreSQL's jsonb cannot hold
    const nul = envelope(`evt_${backend}_nul`, '{"incidentId":"inc_b","message":"a\\u0000b"}');
    const surrogate = envelope(
      `evt_${backend}_surrogate`,
      '{"incidentId":"inc_b","message":"lone \\ud800 high","\\udc00key":1}',
    );
    const nulInIds = envelope(`evt_${backend}_id\\u0000`, '{"incidentId":"inc_b\\u0000"}');
    const depth = 5_000;
    const deep = envelope(
      `evt_${backend}_deep`,
      `{"incidentId":"inc_b","nested":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    );

    // all at once, so the good and the bad share the inbox's group writes
    const responses = await Promise.all([
      ...good.map((body) => post('sub-a', body)),
      post('sub-b', nul),
      post('sub-b', surrogate),
      post('sub-b', nulInIds),
      post('sub-b', deep),
    ]);
    const answers = await Promise.all(
      responses.map(async (r) => ({ status: r.status, body: (await r.json()) as unknown })),
    );
    const [deepAnswer] = answers.splice(-1);
    expect(answers).toEqual(
      Array.from({ length: good.length + 3 }, () => ({
        status: 200,
        body: { status: 'accepted' },
      })),
    );
    expect(deepAnswer).toEqual({
      status: 422,
      body: { error: { code: 'payload_too_deep', message: expect.stringMatching(/deeper than/) } },
    });

    // every good delivery has its receipt and its job, ready for the worker
    const jobs = await harness.boss.findJobs(INCIDENT_EVENT_QUEUE);
    const eventIds = jobs.map((job) => (job.data as { event: { id: string } }).event.id);
    for (let i = 0; i < good.length; i += 1) expect(eventIds).toContain(`evt_${backend}_good_${i}`);

    // the bad ones are stored too: U+FFFD where jsonb could not hold the text, the exact bytes beside
    const receipt = await harness.db.prisma.webhookReceipt.findFirstOrThrow({
      where: { dedupeKey: `${ACCOUNT_B}:evt_${backend}_nul` },
    });
    expect(receipt.payload).toMatchObject({ data: { message: 'a\ufffdb' } });
    expect(Buffer.from(receipt.rawBody!).toString('utf8')).toBe(nul);
    const [nulJob] = await harness.boss.findJobs(INCIDENT_EVENT_QUEUE, { id: receipt.id });
    expect(nulJob?.data).toMatchObject({ event: { data: { message: 'a\ufffdb' } } });

    const lone = await harness.db.prisma.webhookReceipt.findFirstOrThrow({
      where: { dedupeKey: `${ACCOUNT_B}:evt_${backend}_surrogate` },
    });
    expect(lone.payload).toMatchObject({ data: { message: 'lone \ufffd high', '\ufffdkey': 1 } });
    expect(Buffer.from(lone.rawBody!).toString('utf8')).toBe(surrogate);

    const ids = await harness.db.prisma.webhookReceipt.findFirstOrThrow({
      where: { dedupeKey: `${ACCOUNT_B}:evt_${backend}_id\ufffd` },
    });
    const [idsJob] = await harness.boss.findJobs(INCIDENT_EVENT_QUEUE, { id: ids.id });
    expect(idsJob?.singletonKey).toBe(`${ACCOUNT_B}:inc_b\ufffd`);

    // a delivery that needed no change keeps no second copy of its bytes
    const plain = await harness.db.prisma.webhookReceipt.findFirstOrThrow({
      where: { dedupeKey: `${ACCOUNT_A}:evt_${backend}_good_0` },
    });
    expect(plain.rawBody).toBeNull();
    // nothing of the deep one
    expect(
      await harness.db.prisma.webhookReceipt.count({
        where: { dedupeKey: `${ACCOUNT_B}:evt_${backend}_deep` },
      }),
    ).toBe(0);

    // the redelivery of a replaced one is still a duplicate
    const again = await post('sub-b', nul);
    expect(await again.json()).toEqual({ status: 'duplicate' });
  });

  it('writes a group that still fails one entry at a time, refusing only the entry at fault', async () => {
    const inbox = createInbox(harness.db, harness.boss);
    const entry = (accountId: string, key: string): InboxEntry => ({
      source: 'incident',
      dedupeKey: `${accountId}:${key}`,
      accountId,
      payload: { key },
      job: {
        queue: INCIDENT_EVENT_QUEUE,
        data: { accountId, event: { id: key } },
        singletonKey: `${accountId}:${key}`,
      },
    });
    // An account that does not exist (uninstalled between the lookup and the write): a foreign
    // key violation no check before the write can see. Accepted in one turn, so one group.
    const gone = '00000000-0000-4000-8000-00000000dead';
    const results = await Promise.allSettled([
      inbox.accept(entry(ACCOUNT_A, `group_${backend}_1`)),
      inbox.accept(entry(gone, `group_${backend}_gone`)),
      inbox.accept(entry(ACCOUNT_B, `group_${backend}_2`)),
      inbox.accept(entry(ACCOUNT_A, `group_${backend}_3`)),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    const refusal = (results[1] as PromiseRejectedResult).reason as unknown;
    expect(refusal).toBeInstanceOf(UnstorableDeliveryError);
    expect(refusal).toMatchObject({ reason: 'unstorable_payload' });
    expect((refusal as Error).message).toMatch(/SQLSTATE 23503/);
    expect((refusal as Error).message).not.toContain(gone);
    for (const result of [results[0], results[2], results[3]]) {
      expect((result as PromiseFulfilledResult<{ status: string }>).value.status).toBe('accepted');
    }
  });
});

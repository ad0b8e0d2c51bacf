// Reporting again after a report that created nothing, through the whole trigger path: the Zendesk
// sandbox's triggers (as setup defines them) fire signed webhooks at the real receiver, the inbox
// writes receipts and jobs, and the jobs run through the worker's handler with their pg-boss ids.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, type PgBoss } from '@incident-desk/db';
import { signZendeskWebhook, ZendeskClient } from '@incident-desk/zendesk-api';
import { errorHandler } from '../src/http/app-error';
import { ticketingWebhookRouter } from '../src/http/ticketing-webhook';
import { TICKET_EVENT_QUEUE } from '../src/jobs/ticket-event-job';
import { createInbox } from '../src/ingest/inbox';
import { buildTriggerDefinitions } from '../src/setup/trigger-definitions';
import type { SyncOutcome } from '../src/worker/job-outcome';
import { ticketEventSyncHandler } from '../src/sync/ticket-events';
import {
  startTicketSyncHarness,
  SYNC_ACCOUNT,
  type TicketSyncHarness,
} from './support/sync-ticket-harness';
import { backends } from './support/test-database';

describe.each(backends)('re-reporting through the trigger path on %s', (backend) => {
  let h: TicketSyncHarness;
  let boss: PgBoss;
  let server: ReturnType<express.Express['listen']>;
  let endpoint: string;
  let secret: string;
  const tag = backend === 'pglite' ? 'a' : 'b';

  beforeAll(async () => {
    h = await startTicketSyncHarness(backend);
    boss = await createJobQueue(h.db, { supervise: false, schedule: false });
    await boss.createQueue(TICKET_EVENT_QUEUE, { policy: 'key_strict_fifo' });
    const app = express();
    app.use(
      ticketingWebhookRouter({
        inbox: createInbox(h.db, boss),
        accounts: {
          find: async (id) =>
            id === SYNC_ACCOUNT ? { accountId: SYNC_ACCOUNT, secrets: [secret] } : null,
        },
      }),
    );
    app.use(errorHandler);
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ticketing/webhook?account=${SYNC_ACCOUNT}`;

    // setup's part, done as an administrator
    const adminToken = h.zendeskSandbox.issueToken('demo', h.demo.adminId, ['read', 'write']);
    const admin = new ZendeskClient({
      baseUrl: `${h.zendeskUrl}/_z/demo`,
      tokenProvider: {
        getAccessToken: async () => adminToken,
        refreshAfterUnauthorized: async () => adminToken,
      },
    });
    const webhook = await admin.webhooks.create({
      name: 'incident-desk test',
      endpoint,
      http_method: 'POST',
      request_format: 'json',
      status: 'active',
      subscriptions: ['conditional_ticket_events'],
    });
    secret = (await admin.webhooks.signingSecret.show(webhook.id)).secret;
    for (const trigger of buildTriggerDefinitions({
      webhookId: webhook.id,
      forwardInternalNotes: false,
    })) {
      await admin.triggers.create(trigger);
    }
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await h?.close();
  });

  const handler = () => ticketEventSyncHandler({ db: h.db });

  /** Waits for every webhook delivery, then runs the queued jobs as the worker does, until none is left. */
  async function drain(): Promise<{ kind: string; ticketId: number; outcome: SyncOutcome }[]> {
    const ran: { kind: string; ticketId: number; outcome: SyncOutcome }[] = [];
    for (;;) {
      await h.zendeskSandbox.webhooksIdle();
      const jobs = await boss.fetch<{ body: { kind: string; ticketId: number } }>(
        TICKET_EVENT_QUEUE,
        { batchSize: 20, includeMetadata: true },
      );
      if (jobs.length === 0) return ran;
      for (const job of jobs) {
        const outcome = await handler()(h.ctx, job.data, job);
        ran.push({ kind: job.data.body.kind, ticketId: job.data.body.ticketId, outcome });
        await boss.complete(TICKET_EVENT_QUEUE, job.id);
      }
    }
  }
  const reportsOf = (ran: Awaited<ReturnType<typeof drain>>, ticketId: number) =>
    ran.filter((entry) => entry.kind === 'report' && entry.ticketId === ticketId);

  const setThreat = (ticketId: number, threat: string) =>
    h.ctx.zendesk.tickets.update(ticketId, {
      custom_fields: [{ id: h.demo.threatFieldId, value: threat }],
    });
  const removeTag = (ticketId: number, name: string) =>
    h.ctx.zendesk.tickets.update(ticketId, { remove_tags: [name] });

  const receiptsOf = (ticketId: number, mode = 'takedown') =>
    h.db.prisma.webhookReceipt.findMany({
      where: { dedupeKey: { startsWith: `${SYNC_ACCOUNT}:ticket-report:${ticketId}:${mode}` } },
      orderBy: { receivedAt: 'asc' },
    });

  /** The report delivery as Zendesk signs it, sent again by hand (a redelivery). */
  async function redeliver(ticketId: number, mode = 'takedown'): Promise<string | undefined> {
    const raw = JSON.stringify({
      kind: 'report',
      ticketId: String(ticketId),
      mode,
      requesterEmail: 'erin@customer.example',
    });
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signZendeskWebhook({ secret, rawBody: raw }).headers,
      },
      body: raw,
    });
    return ((await response.json()) as { status?: string }).status;
  }

  it.each([
    ['takedown', 'incident_submit'],
    ['monitor', 'incident_submit_monitor'],
  ] as const)(
    'an invalid Threat is explained; fixed and re-tagged, the ticket is reported for %s once',
    async (mode, submitTag) => {
      const ticketId = await h.createTicket({ threat: 'not a threat at all', tags: [submitTag] });
      const first = reportsOf(await drain(), ticketId);
      expect(first.map((entry) => entry.outcome.status)).toEqual(['failed_permanently']);
      const failed = await h.readTicket(ticketId);
      expect(failed.ticket.tags).not.toContain(submitTag);
      const [note, ...more] = await h.notesContaining(
        ticketId,
        'Not reported to the incident service',
      );
      expect(more).toHaveLength(0);
      expect(note!.body).toContain(`add the ${submitTag} tag again`);
      // the first request's receipt stays, moved aside
      expect((await receiptsOf(ticketId, mode)).map((r) => r.dedupeKey)).toEqual([
        expect.stringMatching(/:released:/),
      ]);

      const threat = `https://fixed-${mode}-${tag}.phish-resubmit.test/login`;
      await setThreat(ticketId, threat);
      expect(reportsOf(await drain(), ticketId)).toEqual([]); // no tag, no trigger
      await h.addTags(ticketId, [submitTag]);
      const second = reportsOf(await drain(), ticketId);
      expect(second.map((entry) => entry.outcome.status)).toEqual(['applied']);
      const [incident, ...others] = await h.incidentsWithSubject(threat);
      expect(others).toHaveLength(0);
      expect(incident!.requestedAction).toBe(mode);
      const linked = await h.readTicket(ticketId);
      expect(linked.ticket.tags).toContain('incident_linked');
      expect(linked.ticket.tags).not.toContain(submitTag);

      // linked: re-tagging fires nothing, a redelivery is a duplicate, nothing is reported again
      await h.addTags(ticketId, [submitTag]);
      expect(await redeliver(ticketId, mode)).toBe('duplicate');
      expect(reportsOf(await drain(), ticketId)).toEqual([]);
      expect(await h.incidentsWithSubject(threat)).toHaveLength(1);
    },
  );

  it('a late redelivery of an answered request reports nothing: the submit tag is gone', async () => {
    const ticketId = await h.createTicket({ threat: 'not a threat either' });
    expect(reportsOf(await drain(), ticketId).map((entry) => entry.outcome.status)).toEqual([
      'failed_permanently',
    ]);
    // the agent fixes the Threat but has not asked again; Zendesk retries the old delivery
    const threat = `https://late-${tag}.phish-resubmit.test/`;
    await setThreat(ticketId, threat);
    expect(await redeliver(ticketId)).toBe('accepted');
    const late = reportsOf(await drain(), ticketId);
    expect(late.map((entry) => entry.outcome)).toEqual([
      { status: 'skipped', reason: 'tag incident_submit no longer on the ticket' },
    ]);
    expect(await h.incidentsWithSubject(threat)).toHaveLength(0);
    expect(await h.notesContaining(ticketId, 'Not reported to the incident service')).toHaveLength(
      1,
    );
    // asked again, it is reported
    await h.addTags(ticketId, ['incident_submit']);
    expect(reportsOf(await drain(), ticketId).map((entry) => entry.outcome.status)).toEqual([
      'applied',
    ]);
    expect(await h.incidentsWithSubject(threat)).toHaveLength(1);
  });

  it('a report the service refused (400) can be made again by re-adding the tag', async () => {
    const threat = `https://refused-${tag}.phish-resubmit.test/`;
    const ticketId = await h.createTicket({ threat });
    await h.incidentFault({
      method: 'POST',
      path: '/v1/incident/tkd',
      kind: 'status',
      status: 400,
      times: 1,
    });
    const first = reportsOf(await drain(), ticketId);
    expect(first.map((entry) => entry.outcome.status)).toEqual(['failed_permanently']);
    expect(await h.incidentsWithSubject(threat)).toHaveLength(0);
    expect((await h.readTicket(ticketId)).ticket.tags).not.toContain('incident_submit');
    expect(await h.notesContaining(ticketId, 'refused the report')).toHaveLength(1);
    expect(await h.db.prisma.reportAttempt.count({ where: { ticketId: BigInt(ticketId) } })).toBe(
      0,
    );

    await h.addTags(ticketId, ['incident_submit']);
    expect(reportsOf(await drain(), ticketId).map((entry) => entry.outcome.status)).toEqual([
      'applied',
    ]);
    expect(await h.incidentsWithSubject(threat)).toHaveLength(1);
  });

  it('duplicate and concurrent deliveries of one request report once', async () => {
    const threat = `https://twice-${tag}.phish-resubmit.test/`;
    const ticketId = await h.createTicket({ threat: 'still wrong' });
    await drain();
    await setThreat(ticketId, threat);
    // Zendesk delivers the next request twice, and a redelivery races it
    const duplicates = await fetch(`${h.zendeskUrl}/_sandbox/accounts/demo/webhook-duplicates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 1 }),
    });
    expect(duplicates.ok).toBe(true);
    await h.addTags(ticketId, ['incident_submit']);
    const [raced] = await Promise.all([redeliver(ticketId), h.zendeskSandbox.webhooksIdle()]);
    expect(['accepted', 'duplicate']).toContain(raced);
    const ran = reportsOf(await drain(), ticketId);
    expect(ran.map((entry) => entry.outcome.status)).toEqual(['applied']);
    expect(await h.incidentsWithSubject(threat)).toHaveLength(1);
  });

  it('a report whose outcome is unknown is never made again, whatever is re-tagged or redelivered', async () => {
    const threat = `https://unknown-${tag}.phish-resubmit.test/`;
    const ticketId = await h.createTicket({ threat });
    await h.incidentFault({ method: 'POST', path: '/v1/incident/tkd', kind: 'drop', times: 1 });
    expect(reportsOf(await drain(), ticketId).map((entry) => entry.outcome.status)).toEqual([
      'applied',
    ]);
    const before = (await h.incidents()).length;
    expect((await h.readTicket(ticketId)).ticket.tags).toContain('incident_unlinked');
    await removeTag(ticketId, 'incident_submit');
    await h.addTags(ticketId, ['incident_submit']);
    expect(await redeliver(ticketId)).toBe('duplicate');
    expect(reportsOf(await drain(), ticketId)).toEqual([]);
    expect((await h.incidents()).length).toBe(before);
    expect((await receiptsOf(ticketId)).map((r) => r.dedupeKey)).toEqual([
      `${SYNC_ACCOUNT}:ticket-report:${ticketId}:takedown`,
    ]);
  });

  it('a service still unavailable on the last try releases the request; re-tagged later it reports', async () => {
    const threat = `https://busy-${tag}.phish-resubmit.test/`;
    const ticketId = await h.createTicket({ threat });
    await h.zendeskSandbox.webhooksIdle();
    const [job] = await boss.fetch<{ body: { kind: string } }>(TICKET_EVENT_QUEUE, {
      includeMetadata: true,
    });
    expect(job?.data.body.kind).toBe('report');
    await h.incidentFault({
      method: 'POST',
      path: '/v1/incident/tkd',
      kind: 'status',
      status: 503,
    });
    try {
      // not the last try: thrown for the queue to retry, the request kept
      await expect(handler()(h.ctx, job!.data, job!)).rejects.toThrow();
      expect((await receiptsOf(ticketId))[0]?.dedupeKey).not.toMatch(/:released:/);
      const last = { ...job!, retryCount: job!.retryLimit };
      const outcome = await handler()(h.ctx, last.data, last);
      expect(outcome.status).toBe('failed_permanently');
    } finally {
      await h.clearFaults();
    }
    await boss.complete(TICKET_EVENT_QUEUE, job!.id);
    expect(await h.notesContaining(ticketId, 'was unavailable')).toHaveLength(1);
    expect((await h.readTicket(ticketId)).ticket.tags).not.toContain('incident_submit');
    expect(await h.incidentsWithSubject(threat)).toHaveLength(0);

    await h.addTags(ticketId, ['incident_submit']);
    expect(reportsOf(await drain(), ticketId).map((entry) => entry.outcome.status)).toEqual([
      'applied',
    ]);
    expect(await h.incidentsWithSubject(threat)).toHaveLength(1);
  });
});

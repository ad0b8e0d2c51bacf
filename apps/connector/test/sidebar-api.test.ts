// The sidebar API over real HTTP, with both sandboxes in-process and two installed accounts.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, type PgBoss } from '@incident-desk/db';
import { createIncidentClient } from '@incident-desk/incident-api';
import { seedDemo, type TDemoSeed } from '@incident-desk/zendesk-sandbox';
import { ZendeskClient } from '@incident-desk/zendesk-api';
import type { AccountContext } from '../src/accounts/account-context';
import { errorHandler } from '../src/http/http-error';
import { TICKET_EVENT_QUEUE, type TicketEventJob } from '../src/http/ticketing-webhook';
import { createInbox } from '../src/ingest/inbox';
import { sidebarApiRouter } from '../src/sidebar-api';
import { createAgentChecker } from '../src/sidebar-api/agent-check';
import {
  startTicketSyncHarness,
  SYNC_ACCOUNT,
  type TicketSyncHarness,
} from './support/sync-ticket-harness';
import { backends } from './support/test-database';

const SECRET_A = 'sidebar-secret-of-demo';
const SECRET_B = 'sidebar-secret-of-other';
const ACCOUNT_B = '00000000-0000-4000-8000-0000000000b2';

interface Claims {
  subdomain: string;
  agent_id: number;
  agent_email: string;
  ticket_id: number;
}

interface ErrorBody {
  error: { code: string; message: string; retryAfterSeconds?: number };
}

interface ViewBody {
  ticket: {
    id: number;
    linkState: string;
    incidentId: string | null;
    threat: string | null;
    unlinkedReason?: string;
    fieldIds: Record<string, number>;
  };
  incident: { id: string; status: string; clientId: string } | null;
  snapshots: unknown[];
  takedownAttempts: { id: string; takedownAttempts: unknown[] } | null;
  usage: { remainingCredits: unknown } | null;
  sync: {
    lastEventAppliedAt: string | null;
    pendingForwards: number;
    failedForwards: { id: string; kind: string; lastError: string }[];
  };
  unavailable: { part: string; reason: string }[];
  fetchedAt: string;
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe.each(backends)('sidebar API on %s', (backend) => {
  let h: TicketSyncHarness;
  let boss: PgBoss;
  let other: TDemoSeed;
  let ctxB: AccountContext;
  let baseUrl: string;
  let closeServer: () => Promise<void>;
  let agentA: Claims;

  beforeAll(async () => {
    h = await startTicketSyncHarness(backend);
    await h.db.prisma.account.create({ data: { id: ACCOUNT_B, zendeskSubdomain: 'other' } });
    other = seedDemo(h.zendeskSandbox, 'other');
    const tokenB = h.zendeskSandbox.issueToken('other', other.adminId, ['read', 'write'], 172_800);
    const incidentsB = createIncidentClient({
      baseURL: h.incidentUrl,
      apiKey: 'sandbox-other-key',
      retry: { maxRetries: 0 },
    });
    ctxB = {
      accountId: ACCOUNT_B,
      subdomain: 'other',
      zendesk: new ZendeskClient({
        baseUrl: `${h.zendeskUrl}/_z/other`,
        tokenProvider: {
          getAccessToken: async () => tokenB,
          refreshAfterUnauthorized: async () => tokenB,
        },
        maxRetries: 0,
      }),
      incidents: () => incidentsB,
      fields: {
        threat: other.threatFieldId,
        incidentId: other.incidentFieldId,
        status: other.statusFieldId,
      },
      settings: h.settings,
    };

    boss = await createJobQueue(h.db, { supervise: false, schedule: false });
    await boss.createQueue(TICKET_EVENT_QUEUE, { policy: 'key_strict_fifo' });
    const installs: Record<string, { accountId: string; sharedSecret: string }> = {
      demo: { accountId: SYNC_ACCOUNT, sharedSecret: SECRET_A },
      other: { accountId: ACCOUNT_B, sharedSecret: SECRET_B },
    };
    const app = express();
    app.use(
      sidebarApiRouter({
        db: h.db,
        accounts: {
          forAccount: async (id) => (id === SYNC_ACCOUNT ? h.ctx : ctxB),
        },
        installations: { find: async (subdomain) => installs[subdomain] ?? null },
        inbox: createInbox(h.db, boss),
      }),
    );
    app.use(errorHandler);
    const server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    closeServer = () => new Promise((resolve) => server.close(() => resolve()));
    agentA = {
      subdomain: 'demo',
      agent_id: h.demo.agentIds[0],
      agent_email: 'alex@demo.example',
      ticket_id: 0,
    };
  }, 120_000);

  afterAll(async () => {
    await closeServer?.();
    await h?.close();
  });

  function sign(
    claims: Partial<Claims>,
    { secret = SECRET_A, expiresIn = '5m', alg = 'HS256' } = {},
  ) {
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg, typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(expiresIn)
      .sign(new TextEncoder().encode(secret));
  }

  async function call(
    ticketId: number | string,
    token: string | null,
    route = '',
    body?: unknown,
  ): Promise<{ status: number; headers: Headers; body: unknown }> {
    const response = await fetch(`${baseUrl}/sidebar/tickets/${ticketId}${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
  }

  async function asAgent(ticketId: number, route = '', body?: unknown) {
    return call(ticketId, await sign({ ...agentA, ticket_id: ticketId }), route, body);
  }

  async function seedIncident(
    input: Record<string, unknown>,
  ): Promise<{ id: string; ref: string }> {
    const response = await fetch(`${h.incidentUrl}/_sandbox/incidents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: 'cl_demo_parent', emitEvents: false, ...input }),
    });
    expect(response.status).toBeLessThan(300);
    return (await response.json()) as { id: string; ref: string };
  }

  async function patchClient(id: string, patch: Record<string, unknown>) {
    const response = await fetch(`${h.incidentUrl}/_sandbox/clients/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(patch),
    });
    expect(response.ok).toBe(true);
  }

  let counter = 0;
  /** A ticket of account A linked (Incident ID field) to a fresh incident. */
  async function linkedTicket(status = 'approval_required') {
    counter += 1;
    const url = `https://phish-${backend}-${counter}.example/login`;
    const incident = await seedIncident({ url, status });
    const ticketId = await h.createTicket({ threat: url, tags: [] });
    await h.ctx.zendesk.tickets.update(ticketId, {
      custom_fields: [{ id: h.demo.incidentFieldId, value: incident.id }],
    });
    return { ticketId, incident, url };
  }

  async function incidentRecord(id: string) {
    const response = await fetch(`${h.incidentUrl}/_sandbox/incidents/${id}`);
    return (await response.json()) as {
      status: string;
      history?: { message?: string; author?: string }[];
    };
  }

  async function reportJobsOf(ticketId: number) {
    const jobs = await boss.findJobs<TicketEventJob>(TICKET_EVENT_QUEUE);
    return jobs.filter((job) => job.data.body.ticketId === ticketId);
  }

  describe('the ticket view', () => {
    it('answers a linked ticket with incident, snapshots, attempts, usage and sync health', async () => {
      const { ticketId, incident, url } = await linkedTicket();
      await h.db.prisma.ticketSyncState.create({
        data: {
          accountId: SYNC_ACCOUNT,
          ticketId: BigInt(ticketId),
          lastEventAt: new Date('2026-11-03T09:32:00.000Z'),
          lastStatus: 'approval_required',
        },
      });
      await h.db.prisma.forwardedComment.createMany({
        data: [
          {
            accountId: SYNC_ACCOUNT,
            commentId: 9_000_001n,
            ticketId: BigInt(ticketId),
            incidentId: incident.id,
            status: 'failed',
            detail: 'not forwarded (HTTP 500)',
          },
          {
            accountId: SYNC_ACCOUNT,
            commentId: 9_000_002n,
            ticketId: BigInt(ticketId),
            incidentId: incident.id,
            status: 'failed',
            detail: 'in flight: if this remains, the worker stopped while posting',
          },
        ],
      });

      const { status, body } = await asAgent(ticketId);
      expect(status).toBe(200);
      const view = body as ViewBody;
      expect(view.ticket).toEqual({
        id: ticketId,
        linkState: 'linked',
        incidentId: incident.id,
        threat: url,
        fieldIds: {
          threat: h.demo.threatFieldId,
          incidentId: h.demo.incidentFieldId,
          incidentStatus: h.demo.statusFieldId,
        },
      });
      expect(view.incident).toMatchObject({
        id: incident.id,
        status: 'approval_required',
        clientId: 'cl_demo_parent',
      });
      expect(Array.isArray(view.snapshots)).toBe(true);
      expect(view.takedownAttempts).toMatchObject({ id: incident.id });
      expect(typeof view.usage?.remainingCredits).toBe('number');
      expect(view.unavailable).toEqual([]);
      expect(view.sync).toEqual({
        lastEventAppliedAt: '2026-11-03T09:32:00.000Z',
        pendingForwards: 1,
        failedForwards: [
          expect.objectContaining({
            id: 'comment-9000001',
            kind: 'comment',
            lastError: 'not forwarded (HTTP 500)',
          }),
        ],
      });
      expect(Number.isNaN(Date.parse(view.fetchedAt))).toBe(false);
    });

    it('tells unlinked, failed and empty tickets apart', async () => {
      const unlinked = await h.createTicket({ threat: 'bad.example', tags: [] });
      const empty = await h.createTicket({ tags: [] });
      const failed = await h.createTicket({ threat: 'dup.example', tags: ['incident_unlinked'] });
      await h.db.prisma.reconciliationEntry.create({
        data: {
          accountId: SYNC_ACCOUNT,
          ticketId: BigInt(failed),
          reason: 'duplicate',
          detail: 'answered 409',
        },
      });

      const a = (await asAgent(unlinked)).body as ViewBody;
      expect(a.ticket).toMatchObject({
        linkState: 'unlinked',
        threat: 'bad.example',
        incidentId: null,
      });
      expect(a).toMatchObject({
        incident: null,
        snapshots: [],
        takedownAttempts: null,
        usage: null,
      });
      expect(((await asAgent(empty)).body as ViewBody).ticket.linkState).toBe('none');
      const f = (await asAgent(failed)).body as ViewBody;
      expect(f.ticket).toMatchObject({
        linkState: 'failed',
        unlinkedReason: 'duplicate: answered 409',
      });
    });

    it('survives an unavailable resolutions endpoint (503, then 403 not enabled)', async () => {
      const { ticketId } = await linkedTicket('takedown_in_progress');
      await h.incidentFault({
        path: '/v1/incidents/resolutions',
        kind: 'status',
        status: 503,
        times: 10,
      });
      try {
        const { status, body } = await asAgent(ticketId);
        expect(status).toBe(200);
        const view = body as ViewBody;
        expect(view.incident?.status).toBe('takedown_in_progress');
        expect(view.takedownAttempts).toBeNull();
        expect(view.unavailable).toEqual([
          { part: 'takedownAttempts', reason: 'temporarily_unavailable' },
        ]);
      } finally {
        await h.clearFaults();
      }

      await patchClient('cl_demo_parent', { resolutionsEnabled: false });
      try {
        const view = (await asAgent(ticketId)).body as ViewBody;
        expect(view.incident).not.toBeNull();
        expect(view.unavailable).toEqual([{ part: 'takedownAttempts', reason: 'not_enabled' }]);
      } finally {
        await patchClient('cl_demo_parent', { resolutionsEnabled: true });
      }
    });

    it('lists each part it could not read, with a missing incident and a usage outage', async () => {
      const missing = await h.createTicket({ threat: 'lost.example', tags: [] });
      await h.ctx.zendesk.tickets.update(missing, {
        custom_fields: [{ id: h.demo.incidentFieldId, value: 'inc_not_there' }],
      });
      const lost = (await asAgent(missing)).body as ViewBody;
      expect(lost.ticket.linkState).toBe('linked');
      expect(lost).toMatchObject({ incident: null, snapshots: [], takedownAttempts: null });
      expect(lost.unavailable).toEqual(
        expect.arrayContaining([
          { part: 'incident', reason: 'not_found' },
          { part: 'snapshots', reason: 'not_found' },
          { part: 'takedownAttempts', reason: 'not_found' },
        ]),
      );

      const { ticketId } = await linkedTicket();
      await h.incidentFault({ path: '/v1/usage', kind: 'status', status: 503, times: 10 });
      try {
        const view = (await asAgent(ticketId)).body as ViewBody;
        expect(view.incident).not.toBeNull();
        expect(view.usage).toBeNull();
        expect(view.unavailable).toEqual([{ part: 'usage', reason: 'temporarily_unavailable' }]);
      } finally {
        await h.clearFaults();
      }
    });

    it('answers 404 for a ticket the account does not have', async () => {
      const { status, body } = await asAgent(987_654);
      expect(status).toBe(404);
      expect((body as ErrorBody).error.code).toBe('ticket_not_found');
    });
  });

  describe('authentication', () => {
    let ticketId: number;
    beforeAll(async () => {
      ticketId = await h.createTicket({ threat: 'auth.example', tags: [] });
    });

    async function expect401(token: string | null, code = 'invalid_token', path = ticketId) {
      const { status, body } = await call(path, token);
      expect(status).toBe(401);
      expect((body as ErrorBody).error.code).toBe(code);
      // nothing about secrets in the answer
      expect(JSON.stringify(body)).not.toContain(SECRET_A);
      expect(JSON.stringify(body)).not.toContain(SECRET_B);
    }

    it('accepts a valid token and rejects a missing one', async () => {
      expect((await call(ticketId, await sign({ ...agentA, ticket_id: ticketId }))).status).toBe(
        200,
      );
      await expect401(null);
      await expect401('not-a-jwt');
    });

    it('rejects a bad signature, another account’s secret, alg none and other algorithms', async () => {
      const claims = { ...agentA, ticket_id: ticketId };
      await expect401(await sign(claims, { secret: 'guessed-secret' }));
      await expect401(await sign(claims, { secret: SECRET_B }));
      const now = Math.floor(Date.now() / 1000);
      const payload = base64url({ ...claims, iat: now, exp: now + 300 });
      await expect401(`${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.`);
      await expect401(await sign(claims, { alg: 'HS512' }));
    });

    it('rejects an expired token and one without exp', async () => {
      const claims = { ...agentA, ticket_id: ticketId };
      await expect401(await sign(claims, { expiresIn: '-60s' }), 'token_expired');
      const noExp = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(SECRET_A));
      await expect401(noExp);
    });

    it('rejects malformed claims and a ticket id other than the path’s', async () => {
      await expect401(await sign({ subdomain: 'demo', ticket_id: ticketId }));
      await expect401(await sign({ ...agentA, ticket_id: ticketId + 1 }));
    });

    it('rejects an end user, an unknown user and an email that is not the agent’s', async () => {
      const base = { ...agentA, ticket_id: ticketId };
      await expect401(
        await sign({ ...base, agent_id: h.demo.endUserId, agent_email: 'erin@customer.example' }),
        'agent_not_in_account',
      );
      await expect401(await sign({ ...base, agent_id: 99_999_999 }), 'agent_not_in_account');
      await expect401(
        await sign({ ...base, agent_email: 'bea@demo.example' }),
        'agent_not_in_account',
      );
      // the admin is an agent too
      const admin = await sign({
        ...base,
        agent_id: h.demo.adminId,
        agent_email: 'admin@demo.example',
      });
      expect((await call(ticketId, admin)).status).toBe(200);
    });

    it('keeps account A’s token away from account B’s tickets and agents', async () => {
      const otherThreat = `https://only-in-other-${backend}.example`;
      const created = await fetch(`${h.zendeskUrl}/_sandbox/accounts/other/tickets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          requester_id: other.endUserId,
          subject: 'B',
          body: 'B',
          custom_fields: [{ id: other.threatFieldId, value: otherThreat }],
        }),
      });
      const bTicket = ((await created.json()) as { ticket: { id: number } }).ticket.id;

      // B's own agent reads it with B's token
      const bToken = await sign(
        {
          subdomain: 'other',
          agent_id: other.agentIds[0],
          agent_email: 'alex@other.example',
          ticket_id: bTicket,
        },
        { secret: SECRET_B },
      );
      const asB = await call(bTicket, bToken);
      expect(asB.status).toBe(200);
      expect((asB.body as ViewBody).ticket.threat).toBe(otherThreat);

      // A's agent: the same number is looked up in A only, never in B
      const asA = await call(bTicket, await sign({ ...agentA, ticket_id: bTicket }));
      expect(JSON.stringify(asA.body)).not.toContain(otherThreat);
      // A's agent claiming B, with A's secret or with B's secret
      await expect401(
        await sign({ ...agentA, subdomain: 'other', ticket_id: bTicket }),
        'invalid_token',
        bTicket,
      );
      await expect401(
        await sign({ ...agentA, subdomain: 'other', ticket_id: bTicket }, { secret: SECRET_B }),
        'agent_not_in_account',
        bTicket,
      );
    });
  });

  describe('approve takedown', () => {
    it('approves as the verified agent', async () => {
      const { ticketId, incident } = await linkedTicket();
      const { status } = await asAgent(ticketId, '/approve-takedown', {
        author: 'ALEX@demo.example',
      });
      expect(status).toBe(200);
      const record = await incidentRecord(incident.id);
      expect(record.status).toBe('takedown_ready');
      expect(JSON.stringify(record)).toContain('alex@demo.example');
    });

    it('refuses an author other than the agent, without calling the service', async () => {
      const { ticketId, incident } = await linkedTicket();
      const { status, body } = await asAgent(ticketId, '/approve-takedown', {
        author: 'boss@demo.example',
      });
      expect(status).toBe(403);
      expect((body as ErrorBody).error.code).toBe('author_mismatch');
      expect((await incidentRecord(incident.id)).status).toBe('approval_required');
    });

    it('maps 409, 403, 404, 503 and 429 to the sidebar’s errors', async () => {
      const ready = await linkedTicket('takedown_ready');
      const conflict = await asAgent(ready.ticketId, '/approve-takedown', {});
      expect(conflict.status).toBe(409);
      expect((conflict.body as ErrorBody).error.code).toBe('not_awaiting_approval');

      const pending = await linkedTicket();
      await patchClient('cl_demo_parent', { credits: 0 });
      try {
        const noCredits = await asAgent(pending.ticketId, '/approve-takedown', {});
        expect(noCredits.status).toBe(403);
        expect((noCredits.body as ErrorBody).error.code).toBe('no_credits');
      } finally {
        await patchClient('cl_demo_parent', { credits: 25 });
      }

      const missing = await h.createTicket({ threat: 'gone.example', tags: [] });
      await h.ctx.zendesk.tickets.update(missing, {
        custom_fields: [{ id: h.demo.incidentFieldId, value: 'inc_does_not_exist' }],
      });
      const notFound = await asAgent(missing, '/approve-takedown', {});
      expect(notFound.status).toBe(404);
      expect((notFound.body as ErrorBody).error.code).toBe('incident_not_found');

      await h.incidentFault({
        method: 'POST',
        path: '/v1/incident/:id/approve-takedown',
        kind: 'status',
        status: 503,
        times: 5,
      });
      try {
        const unavailable = await asAgent(pending.ticketId, '/approve-takedown', {});
        expect(unavailable.status).toBe(503);
        expect((unavailable.body as ErrorBody).error.code).toBe('retry_later');
      } finally {
        await h.clearFaults();
      }

      await h.incidentFault({
        method: 'POST',
        path: '/v1/incident/:id/approve-takedown',
        kind: 'rate_limit',
        retryAfterSeconds: 7,
        times: 5,
      });
      try {
        const limited = await asAgent(pending.ticketId, '/approve-takedown', {});
        expect(limited.status).toBe(503);
        expect(limited.headers.get('retry-after')).toBe('7');
        expect((limited.body as ErrorBody).error).toMatchObject({
          code: 'retry_later',
          retryAfterSeconds: 7,
        });
      } finally {
        await h.clearFaults();
      }
      expect((await incidentRecord(pending.incident.id)).status).toBe('approval_required');
    });
  });

  describe('actions', () => {
    it('marks the linked incident safe, and refuses actions on an unlinked ticket', async () => {
      const { ticketId, incident } = await linkedTicket('pre_weaponised');
      const safe = await asAgent(ticketId, '/actions/safe', {});
      expect(safe.status).toBe(200);
      expect((await incidentRecord(incident.id)).status).toBe('closed');

      const unlinked = await h.createTicket({ threat: 'x.example', tags: [] });
      const refused = await asAgent(unlinked, '/actions/takedown', {});
      expect(refused.status).toBe(409);
      expect((refused.body as ErrorBody).error.code).toBe('not_linked');
      expect((await asAgent(unlinked, '/actions/delete', {})).status).toBe(404);
    });

    it('reports once, whatever the number of presses, with the trigger’s dedupe key', async () => {
      const ticketId = await h.createTicket({
        threat: `https://report-${backend}.example`,
        tags: [],
      });
      const first = await asAgent(ticketId, '/report', { mode: 'takedown' });
      const second = await asAgent(ticketId, '/report', { mode: 'takedown' });
      expect([first.status, second.status]).toEqual([202, 202]);
      const jobs = await reportJobsOf(ticketId);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]!.data).toMatchObject({
        accountId: SYNC_ACCOUNT,
        body: { kind: 'report', ticketId, mode: 'takedown' },
      });
      const receipt = await h.db.prisma.webhookReceipt.findFirst({
        where: { dedupeKey: `${SYNC_ACCOUNT}:ticket-report:${ticketId}:takedown` },
      });
      expect(receipt).not.toBeNull();

      expect((await asAgent(ticketId, '/report', { mode: 'delete' })).status).toBe(400);
      const empty = await h.createTicket({ tags: [] });
      const noThreat = await asAgent(empty, '/report', { mode: 'monitor' });
      expect(noThreat.status).toBe(400);
      expect(await reportJobsOf(empty)).toHaveLength(0);
    });

    it('re-queues a failed forward of this ticket only', async () => {
      const { ticketId, incident } = await linkedTicket('pre_weaponised');
      const elsewhere = await linkedTicket('pre_weaponised');
      await h.db.prisma.forwardedComment.create({
        data: {
          accountId: SYNC_ACCOUNT,
          commentId: 9_100_001n,
          ticketId: BigInt(ticketId),
          incidentId: incident.id,
          status: 'failed',
          detail: 'not forwarded (HTTP 400)',
        },
      });
      const wrongTicket = await asAgent(elsewhere.ticketId, '/forwards/comment-9100001/retry', {});
      expect(wrongTicket.status).toBe(404);

      const retried = await asAgent(ticketId, '/forwards/comment-9100001/retry', {});
      expect(retried.status).toBe(200);
      expect(await h.db.prisma.forwardedComment.count({ where: { commentId: 9_100_001n } })).toBe(
        0,
      );
      const jobs = await reportJobsOf(ticketId);
      expect(jobs.map((job) => job.data.body.kind)).toEqual(['comment']);
      expect((await asAgent(ticketId, '/forwards/comment-9100001/retry', {})).status).toBe(404);
    });

    it('retries linking once: clears the unlinked report, resolves reconciliation, reports again', async () => {
      const ticketId = await h.createTicket({
        threat: `https://relink-${backend}.example`,
        tags: [],
      });
      expect((await asAgent(ticketId, '/report', { mode: 'monitor' })).status).toBe(202);
      // what the worker leaves behind when the report could not be linked
      await h.db.prisma.reportAttempt.create({
        data: {
          accountId: SYNC_ACCOUNT,
          ticketId: BigInt(ticketId),
          mode: 'monitor',
          state: 'duplicate',
          detail: 'answered 409',
          finishedAt: new Date(),
        },
      });
      await h.db.prisma.reconciliationEntry.create({
        data: { accountId: SYNC_ACCOUNT, ticketId: BigInt(ticketId), reason: 'duplicate' },
      });
      await h.addTags(ticketId, ['incident_unlinked']);
      const blocked = await asAgent(ticketId, '/report', { mode: 'monitor' });
      expect(blocked.status).toBe(409);

      const retried = await asAgent(ticketId, '/retry-link', {});
      expect(retried.status).toBe(202);
      expect(await h.db.prisma.reportAttempt.count({ where: { ticketId: BigInt(ticketId) } })).toBe(
        0,
      );
      const entry = await h.db.prisma.reconciliationEntry.findFirstOrThrow({
        where: { ticketId: BigInt(ticketId), accountId: SYNC_ACCOUNT },
      });
      expect(entry.resolvedAt).not.toBeNull();
      expect((await h.readTicket(ticketId)).ticket.tags).not.toContain('incident_unlinked');
      const jobs = await reportJobsOf(ticketId);
      expect(jobs.map((job) => job.data.body)).toEqual([
        { kind: 'report', ticketId, mode: 'monitor' },
        { kind: 'report', ticketId, mode: 'monitor' },
      ]);

      // pressed again, or followed by a report press: nothing more is queued
      const again = await asAgent(ticketId, '/retry-link', {});
      expect(again.status).toBe(409);
      expect((again.body as ErrorBody).error.code).toBe('not_unlinked');
      expect((await asAgent(ticketId, '/report', { mode: 'monitor' })).status).toBe(202);
      expect(await reportJobsOf(ticketId)).toHaveLength(2);
    });

    it('leaves a report the worker is still handling alone', async () => {
      const ticketId = await h.createTicket({
        threat: 'busy.example',
        tags: ['incident_unlinked'],
      });
      await h.db.prisma.reportAttempt.create({
        data: {
          accountId: SYNC_ACCOUNT,
          ticketId: BigInt(ticketId),
          mode: 'takedown',
          state: 'failed',
        },
      });
      const { status, body } = await asAgent(ticketId, '/retry-link', {});
      expect(status).toBe(409);
      expect((body as ErrorBody).error.code).toBe('in_progress');
      expect(await h.db.prisma.reportAttempt.count({ where: { ticketId: BigInt(ticketId) } })).toBe(
        1,
      );
      expect(await reportJobsOf(ticketId)).toHaveLength(0);
    });
  });
});

describe('agent check cache', () => {
  it('reads a user once per account and agent within the TTL, again after it', async () => {
    let clock = 0;
    const calls: string[] = [];
    const checker = createAgentChecker({ ttlMs: 1_000, now: () => new Date(clock) });
    const ctxOf = (accountId: string, role: string) =>
      ({
        accountId,
        zendesk: {
          users: {
            show: async (id: number) => {
              calls.push(`${accountId}:${id}`);
              return { id, role, email: 'a@x.example' };
            },
          },
        },
      }) as unknown as AccountContext;
    expect(await checker.check(ctxOf('A', 'agent'), 7, 'A@x.example')).toEqual({
      ok: true,
      email: 'a@x.example',
    });
    expect((await checker.check(ctxOf('A', 'agent'), 7, 'other@x.example')).ok).toBe(false);
    // another account never shares the cached answer
    expect((await checker.check(ctxOf('B', 'end-user'), 7, 'a@x.example')).ok).toBe(false);
    clock = 1_001;
    await checker.check(ctxOf('A', 'agent'), 7, 'a@x.example');
    expect(calls).toEqual(['A:7', 'B:7', 'A:7']);
  });
});

// The sidebar API over real HTTP, with both sandboxes in-process and two installed accounts. Every
// call carries a sidebar session (what the signed page hands out, sidebar-signed-page.test.ts):
// who acts is the session's user, whatever else the request says.
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, type PgBoss } from '@incident-desk/db';
import { createIncidentClient } from '@incident-desk/incident-api';
import { seedDemo, type DemoSeed } from '@incident-desk/zendesk-sandbox';
import { ZendeskClient } from '@incident-desk/zendesk-api';
import { ZSidebarTicketView } from '@incident-desk/sidebar-contract';
import { AccountUnavailableError, type AccountContext } from '../src/accounts/account-context';
import { errorHandler } from '../src/http/app-error';
import { TICKET_EVENT_QUEUE, type TicketEventJob } from '../src/jobs/ticket-event-job';
import { createInbox } from '../src/ingest/inbox';
import { sidebarApiRouter } from '../src/sidebar-api';
import {
  createAgentChecker,
  maySeeTicket,
  type AgentAccess,
} from '../src/sidebar-api/agent-access';
import { createSidebarSessions, type SidebarSessions } from '../src/sidebar-api/sidebar-sessions';
import {
  startTicketSyncHarness,
  SYNC_ACCOUNT,
  type TicketSyncHarness,
} from './support/sync-ticket-harness';
import { backends } from './support/test-database';
import { drainAccountOnce } from '../src/sync/ticket-writes/drain-account';
import { ZENDESK_WRITE_LIMITS } from '../src/sync/ticket-writes/write-budget';

const ACCOUNT_B = '00000000-0000-4000-8000-0000000000b2';
const ACCOUNT_REVOKED = '00000000-0000-4000-8000-0000000000c3';

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
    unlinkedCause?: string;
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
    waitingTicketUpdates?: number;
    writesPausedUntil?: string | null;
  };
  unavailable: { part: string; reason: string }[];
  viewer: { canAct: boolean; reason: string | null };
  fetchedAt: string;
}

describe.each(backends)('sidebar API on %s', (backend) => {
  let h: TicketSyncHarness;
  let boss: PgBoss;
  let other: DemoSeed;
  let ctxB: AccountContext;
  let baseUrl: string;
  let closeServer: () => Promise<void>;
  let sessions: SidebarSessions;
  let agentAToken: string;

  beforeAll(async () => {
    h = await startTicketSyncHarness(backend);
    await h.db.prisma.account.create({ data: { id: ACCOUNT_B, zendeskSubdomain: 'other' } });
    await h.db.prisma.account.create({
      data: { id: ACCOUNT_REVOKED, zendeskSubdomain: 'revoked' },
    });
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
        retry: false,
      }),
      incidents: () => incidentsB,
      fields: {
        threat: other.threatFieldId,
        incidentId: other.incidentFieldId,
        status: other.statusFieldId,
      },
      settings: h.settings,
      noteLocale: 'en',
      canReadAudits: true,
    };

    boss = await createJobQueue(h.db, { supervise: false, schedule: false });
    await boss.createQueue(TICKET_EVENT_QUEUE, { policy: 'key_strict_fifo' });
    const app = express();
    app.use(
      sidebarApiRouter({
        db: h.db,
        accounts: {
          forAccount: async (id) => {
            // the refresh token of this install was revoked: the provider says re-authorise
            if (id === ACCOUNT_REVOKED)
              throw new AccountUnavailableError(id, 'reauthorization_required');
            return id === SYNC_ACCOUNT ? h.ctx : ctxB;
          },
        },
        appId: 1,
        distDir: '/nonexistent',
        zendeskOriginOf: () => h.zendeskUrl,
        // every call reads the user again: restrictions changed mid-test apply at once
        agentCacheMs: 0,
        inbox: createInbox(h.db, boss),
      }),
    );
    app.use(errorHandler);
    const server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    closeServer = () => new Promise((resolve) => server.close(() => resolve()));
    sessions = createSidebarSessions(h.db, () => new Date());
    agentAToken = await sessionOf(h.demo.agentIds[0]);
  });

  afterAll(async () => {
    await closeServer?.();
    await h?.close();
  });

  async function sessionOf(userId: number, accountId = SYNC_ACCOUNT): Promise<string> {
    return (await sessions.open({ accountId, installationId: 1, userId })).token;
  }

  async function call(
    ticketId: number | string,
    token: string | null,
    route = '',
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<{ status: number; headers: Headers; body: unknown }> {
    const response = await fetch(`${baseUrl}/sidebar/tickets/${ticketId}${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        ...extraHeaders,
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

  it('tells the agent an administrator must reconnect when the account needs re-authorisation', async () => {
    const ticketId = await h.createTicket({ threat: 'https://revoked.example/' });
    const token = await sessionOf(h.demo.agentIds[0]!, ACCOUNT_REVOKED);
    const view = await call(ticketId, token);
    expect(view.status).toBe(412);
    expect((view.body as ErrorBody).error.code).toBe('reauthorization_required');
    const action = await call(ticketId, token, '/actions/takedown', {});
    expect((action.body as ErrorBody).error.code).toBe('reauthorization_required');
  });

  async function asAgent(ticketId: number, route = '', body?: unknown) {
    return call(ticketId, agentAToken, route, body);
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
        waitingTicketUpdates: 0,
        waitingSince: null,
        writesPausedUntil: null,
      });
      expect(Number.isNaN(Date.parse(view.fetchedAt))).toBe(false);
      // the contract's schema reads the answer as it is: nothing dropped, nothing defaulted
      expect(ZSidebarTicketView.parse(body)).toEqual(body);
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
        unlinkedCause: 'duplicate',
      });

      // a report that failed for another reason can be retried: its cause says so
      const other = await h.createTicket({ threat: 'odd.example', tags: ['incident_unlinked'] });
      await h.db.prisma.reportAttempt.create({
        data: {
          accountId: SYNC_ACCOUNT,
          ticketId: BigInt(other),
          mode: 'takedown',
          state: 'failed',
          detail: 'answered 422',
          finishedAt: new Date(),
        },
      });
      expect(((await asAgent(other)).body as ViewBody).ticket).toMatchObject({
        linkState: 'failed',
        unlinkedReason: 'answered 422',
        unlinkedCause: 'failed',
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
      await h.incidentFault({ path: '/v1/usage', kind: 'rate_limit', retryAfterSeconds: 1 });
      try {
        const view = (await asAgent(ticketId)).body as ViewBody;
        expect(view.unavailable).toEqual([
          { part: 'usage', reason: 'rate_limited', retryAfterSeconds: 1 },
        ]);
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

    async function expectInvalidSession(token: string | null) {
      const { status, body } = await call(ticketId, token);
      expect(status).toBe(401);
      return body;
    }

    it('answers one thing to every session that does not hold', async () => {
      expect((await call(ticketId, agentAToken)).status).toBe(200);
      const expired = 'e'.repeat(43);
      await h.db.prisma.sidebarSession.create({
        data: {
          accountId: SYNC_ACCOUNT,
          tokenHash: createHash('sha256').update(expired).digest('hex'),
          installationId: 1n,
          userId: BigInt(h.demo.agentIds[0]),
          expiresAt: new Date(Date.now() - 1_000),
          capAt: new Date(Date.now() + 60_000),
        },
      });
      const answers = [
        await expectInvalidSession(null),
        await expectInvalidSession('not-a-session'),
        await expectInvalidSession('x'.repeat(43)),
        await expectInvalidSession(expired),
        // the shape of the JWTs the sidebar used to send: no longer anything
        await expectInvalidSession('eyJhbGciOiJIUzI1NiJ9.eyJzdWJkb21haW4iOiJkZW1vIn0.c2ln'),
      ];
      for (const body of answers)
        expect(body).toEqual({
          error: {
            code: 'invalid_session',
            message: 'no valid sidebar session; open the ticket in Zendesk again',
          },
        });
    });

    it('acts as the session’s user, whatever the request names', async () => {
      const { ticketId: linked, incident } = await linkedTicket();
      // everything the browser controls names the admin: headers, query, body
      const forged = {
        'x-zendesk-user-id': String(h.demo.adminId),
        'x-agent-email': 'admin@demo.example',
      };
      const approve = await call(
        `${linked}?agent_id=${h.demo.adminId}&agent_email=admin%40demo.example`,
        agentAToken,
        '',
        undefined,
        forged,
      );
      expect(approve.status).toBe(200);
      const refused = await call(
        linked,
        agentAToken,
        '/approve-takedown',
        { author: 'admin@demo.example', agent_id: h.demo.adminId },
        forged,
      );
      expect(refused.status).toBe(403);
      expect((refused.body as ErrorBody).error.code).toBe('author_mismatch');
      const approved = await call(linked, agentAToken, '/approve-takedown', {}, forged);
      expect(approved.status).toBe(200);
      const record = await incidentRecord(incident.id);
      expect(JSON.stringify(record)).toContain('alex@demo.example');
      expect(JSON.stringify(record)).not.toContain('admin@demo.example');
    });

    it('refuses a session whose user is no longer an agent of the account', async () => {
      for (const userId of [h.demo.endUserId, 99_999_999]) {
        const { status, body } = await call(ticketId, await sessionOf(userId));
        expect(status).toBe(401);
        expect((body as ErrorBody).error.code).toBe('agent_not_in_account');
      }
      // the admin is an agent too
      expect((await call(ticketId, await sessionOf(h.demo.adminId))).status).toBe(200);
    });

    it('keeps account A’s session away from account B’s tickets', async () => {
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

      const asB = await call(bTicket, await sessionOf(other.agentIds[0], ACCOUNT_B));
      expect(asB.status).toBe(200);
      expect((asB.body as ViewBody).ticket.threat).toBe(otherThreat);

      // A's agent: the same number is looked up in A only, never in B
      const asA = await call(bTicket, agentAToken);
      expect(JSON.stringify(asA.body)).not.toContain(otherThreat);
      // a session of account A naming B's user: that id is no agent of A
      const crossed = await call(bTicket, await sessionOf(other.agentIds[0]));
      expect(crossed.status).toBe(401);
    });

    it('shows a restricted agent only the tickets Zendesk shows them', async () => {
      const groupOnly = h.zendeskSandbox.createUser('demo', {
        name: `Gus ${backend}`,
        email: `gus-${backend}@demo.example`,
        role: 'agent',
        ticket_restriction: 'groups',
        group_ids: [],
      });
      const assignedOnly = h.zendeskSandbox.createUser('demo', {
        name: `Ana ${backend}`,
        email: `ana-${backend}@demo.example`,
        role: 'agent',
        ticket_restriction: 'assigned',
      });
      const { ticketId: linked, incident } = await linkedTicket();
      const groupId = [...h.zendeskSandbox.state.requireAccount('demo').groups.keys()][0]!;
      await h.ctx.zendesk.tickets.update(linked, { group_id: groupId });
      const gus = await sessionOf(groupOnly.id);
      const ana = await sessionOf(assignedOnly.id);

      for (const token of [gus, ana]) {
        const view = await call(linked, token);
        expect(view.status).toBe(404);
        expect((view.body as ErrorBody).error.code).toBe('ticket_not_found');
        expect(JSON.stringify(view.body)).not.toContain(incident.id);
        expect((await call(linked, token, '/approve-takedown', {})).status).toBe(404);
      }
      expect((await incidentRecord(incident.id)).status).toBe('approval_required');

      groupOnly.group_ids = [groupId];
      expect((await call(linked, gus)).status).toBe(200);
      await h.ctx.zendesk.tickets.update(linked, { assignee_id: assignedOnly.id });
      expect((await call(linked, ana)).status).toBe(200);
    });

    it('lets a light agent read but not act', async () => {
      const light = h.zendeskSandbox.createUser('demo', {
        name: `Lee ${backend}`,
        email: `lee-${backend}@demo.example`,
        role: 'agent',
        role_type: 1,
      });
      const token = await sessionOf(light.id);
      const { ticketId: linked, incident } = await linkedTicket();
      const view = await call(linked, token);
      expect(view.status).toBe(200);
      // the view says so before anything is offered
      expect((view.body as ViewBody).viewer).toEqual({ canAct: false, reason: 'read_only_role' });
      expect(((await asAgent(linked)).body as ViewBody).viewer).toEqual({
        canAct: true,
        reason: null,
      });
      for (const [route, body] of [
        ['/approve-takedown', {}],
        ['/actions/safe', {}],
        ['/report', { mode: 'takedown' }],
        ['/retry-link', {}],
        ['/forwards/comment-1/retry', {}],
        ['/ticket-updates/retry', {}],
      ] as const) {
        const refused = await call(linked, token, route, body);
        expect(refused.status).toBe(403);
        expect((refused.body as ErrorBody).error.code).toBe('read_only');
      }
      expect((await incidentRecord(incident.id)).status).toBe('approval_required');
    });

    it('renews a live session once, re-reading the user, and never an expired one', async () => {
      const renew = (token: string) =>
        fetch(`${baseUrl}/sidebar/session/renew`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
        });
      const old = await sessionOf(h.demo.agentIds[1]);
      const answer = await renew(old);
      expect(answer.status).toBe(200);
      const renewed = (await answer.json()) as { token: string; expiresAt: string };
      expect(renewed.token).not.toBe(old);
      expect((await call(ticketId, renewed.token)).status).toBe(200);
      expect((await call(ticketId, old)).status).toBe(401);
      expect((await renew(old)).status).toBe(401);

      const endUser = await sessionOf(h.demo.endUserId);
      expect((await renew(endUser)).status).toBe(401);
    });
  });

  describe('retry now on late ticket updates', () => {
    /** One incident change put off for an hour, recorded five minutes ago: late. */
    async function putOffChange(ticketId: number, tag: string) {
      return h.db.prisma.pendingTicketChange.create({
        data: {
          accountId: SYNC_ACCOUNT,
          ticketId: BigInt(ticketId),
          incidentId: `inc_retry_${tag}`,
          eventRef: `evt-${tag}`,
          eventName: 'incident.status_changed',
          eventAt: new Date(),
          addTags: [tag],
          createdAt: new Date(Date.now() - 5 * 60_000),
          readyAt: new Date(Date.now() + 60 * 60_000),
        },
      });
    }
    const writerPass = () =>
      drainAccountOnce(h.ctx, h.db, {
        now: () => new Date(),
        limits: ZENDESK_WRITE_LIMITS,
        jobPollIntervalMs: 50,
      });
    const rowOf = (id: string) =>
      h.db.prisma.pendingTicketChange.findUniqueOrThrow({ where: { id } });

    it('makes this ticket’s waiting change ready now, and the writer writes it', async () => {
      const { ticketId } = await linkedTicket();
      const tag = `retry_now_${backend}`;
      const change = await putOffChange(ticketId, tag);
      // the writer leaves a change that is not ready yet
      await writerPass();
      expect((await rowOf(change.id)).writtenAt).toBeNull();
      const before = (await asAgent(ticketId)).body as ViewBody;
      expect(before.sync).toMatchObject({ waitingTicketUpdates: 1, writesPausedUntil: null });

      const answer = await asAgent(ticketId, '/ticket-updates/retry', {});
      expect(answer).toMatchObject({ status: 200, body: { message: 'ticket updates due now' } });
      expect((await rowOf(change.id)).readyAt.getTime()).toBeLessThanOrEqual(Date.now());

      await writerPass();
      expect((await rowOf(change.id)).writtenAt).not.toBeNull();
      expect((await h.ctx.zendesk.tickets.show(ticketId)).tags).toContain(tag);
      const after = (await asAgent(ticketId)).body as ViewBody;
      expect(after.sync.waitingTicketUpdates).toBe(0);
    });

    it('touches nothing of another account’s ticket (404), nor for a read-only agent (403)', async () => {
      const { ticketId } = await linkedTicket();
      const change = await putOffChange(ticketId, `untouched_${backend}`);
      const asB = await call(
        ticketId,
        await sessionOf(other.agentIds[0]!, ACCOUNT_B),
        '/ticket-updates/retry',
        {},
      );
      expect(asB.status).toBe(404);
      const light = h.zendeskSandbox.createUser('demo', {
        name: `Lou ${backend}`,
        email: `lou-${backend}@demo.example`,
        role: 'agent',
        role_type: 1,
      });
      const refused = await call(ticketId, await sessionOf(light.id), '/ticket-updates/retry', {});
      expect(refused.status).toBe(403);
      expect((refused.body as ErrorBody).error.code).toBe('read_only');
      expect((await rowOf(change.id)).readyAt.getTime()).toBe(change.readyAt.getTime());
      await h.db.prisma.pendingTicketChange.delete({ where: { id: change.id } });
    });

    it('says when the next attempt is while Zendesk has paused the account, changing nothing', async () => {
      const { ticketId } = await linkedTicket();
      const change = await putOffChange(ticketId, `paused_${backend}`);
      const until = new Date(Date.now() + 5 * 60_000);
      await h.db.prisma.ticketWritePause.create({
        data: { accountId: SYNC_ACCOUNT, pausedUntil: until },
      });
      try {
        const view = (await asAgent(ticketId)).body as ViewBody;
        expect(view.sync.writesPausedUntil).toBe(until.toISOString());
        const answer = await asAgent(ticketId, '/ticket-updates/retry', {});
        expect(answer.status).toBe(503);
        const error = (answer.body as ErrorBody).error;
        expect(error.code).toBe('zendesk_limited');
        expect(error.message).toContain(until.toISOString());
        expect(error.retryAfterSeconds).toBeGreaterThan(290);
        expect(error.retryAfterSeconds).toBeLessThanOrEqual(300);
        expect((await rowOf(change.id)).readyAt.getTime()).toBe(change.readyAt.getTime());
      } finally {
        await h.db.prisma.ticketWritePause.delete({ where: { accountId: SYNC_ACCOUNT } });
        await h.db.prisma.pendingTicketChange.delete({ where: { id: change.id } });
      }
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

    it('remembers the action asked for and the status right after it, for the view, on the ticket’s own link only', async () => {
      const incident = await seedIncident({
        url: `https://requested-${backend}.example/login`,
        status: 'pending_review',
      });
      const ticketId = await h.createTicket({
        threat: `https://requested-${backend}.example/login`,
        tags: [],
      });
      await h.ctx.zendesk.tickets.update(ticketId, {
        custom_fields: [{ id: h.demo.incidentFieldId, value: incident.id }],
      });
      await h.db.prisma.incidentLink.create({
        data: { accountId: SYNC_ACCOUNT, incidentId: incident.id, ticketId: BigInt(ticketId) },
      });
      const viewOf = async () => ZSidebarTicketView.parse((await asAgent(ticketId)).body);
      expect((await viewOf()).requestedAction).toBeNull();

      expect((await asAgent(ticketId, '/actions/monitor', {})).status).toBe(200);
      const monitored = await viewOf();
      expect(monitored.requestedAction).toMatchObject({
        action: 'monitor',
        status: monitored.incident?.status,
      });
      expect((await asAgent(ticketId, '/actions/safe', {})).status).toBe(200);
      expect((await viewOf()).requestedAction).toMatchObject({ action: 'safe', status: 'closed' });

      // a ticket linked by its field alone has no link to remember it on: the action still runs
      const { ticketId: fieldOnly, incident: other } = await linkedTicket('pending_review');
      expect((await asAgent(fieldOnly, '/actions/monitor', {})).status).toBe(200);
      expect((await incidentRecord(other.id)).status).toBe('pre_weaponised');
      expect(ZSidebarTicketView.parse((await asAgent(fieldOnly)).body).requestedAction).toBeNull();
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
      // the reporter is the agent of the verified session, whom the worker names as reportedBy
      const agent = await h.ctx.zendesk.users.show(h.demo.agentIds[0]!);
      expect(jobs[0]!.data).toMatchObject({
        accountId: SYNC_ACCOUNT,
        via: 'sidebar',
        agentEmail: agent.email,
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

    it('shows ticket updates still waiting, and one Zendesk refused with a retry that lets the writer try again', async () => {
      const { ticketId, incident } = await linkedTicket('pre_weaponised');
      const change = (eventRef: string, failedReason: string | null) => ({
        accountId: SYNC_ACCOUNT,
        ticketId: BigInt(ticketId),
        incidentId: incident.id,
        eventRef,
        eventName: 'incident.status_changed',
        eventAt: new Date('2026-11-03T09:00:00.000Z'),
        readyAt: new Date('2099-01-01T00:00:00.000Z'),
        failedReason,
        createdAt: new Date('2026-11-03T09:00:05.000Z'),
      });
      await h.db.prisma.pendingTicketChange.createMany({
        data: [change('evt_waiting', null), change('evt_refused', 'ticket is closed (422)')],
      });
      const failure = await h.db.prisma.syncFailure.create({
        data: {
          accountId: SYNC_ACCOUNT,
          queue: 'ticket-write',
          jobId: 'ticket-write:ref-1',
          ticketId: BigInt(ticketId),
          incidentId: incident.id,
          reason: 'ticket is closed (422)',
          payload: { ticketId, events: ['evt_refused'] },
        },
      });

      const view = (await asAgent(ticketId)).body as ViewBody & {
        sync: { waitingTicketUpdates: number; waitingSince: string | null };
      };
      expect(view.sync).toMatchObject({
        waitingTicketUpdates: 1,
        waitingSince: '2026-11-03T09:00:05.000Z',
        failedForwards: [
          expect.objectContaining({
            id: `job-${failure.id}`,
            kind: 'ticket_update',
            lastError: 'ticket is closed (422)',
          }),
        ],
      });

      expect((await asAgent(ticketId, `/forwards/job-${failure.id}/retry`, {})).status).toBe(200);
      const refused = await h.db.prisma.pendingTicketChange.findFirstOrThrow({
        where: { accountId: SYNC_ACCOUNT, eventRef: 'evt_refused' },
      });
      expect(refused.failedReason).toBeNull();
      expect(refused.writtenAt).toBeNull();
      expect((await asAgent(ticketId, `/forwards/job-${failure.id}/retry`, {})).status).toBe(404);
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
      // its ticket update was counted in the account's shared budget
      expect(
        await h.db.prisma.ticketWriteLog.count({
          where: { accountId: SYNC_ACCOUNT, ticketId: BigInt(ticketId) },
        }),
      ).toBe(1);
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

    it('answers retry_later at once while Zendesk writes are paused, and changes nothing until it may write', async () => {
      const ticketId = await h.createTicket({
        threat: `https://paused-relink-${backend}.example`,
        tags: ['incident_unlinked'],
      });
      await h.db.prisma.reportAttempt.create({
        data: {
          accountId: SYNC_ACCOUNT,
          ticketId: BigInt(ticketId),
          mode: 'takedown',
          state: 'duplicate',
          detail: 'answered 409',
          finishedAt: new Date(),
        },
      });
      await h.db.prisma.reconciliationEntry.create({
        data: { accountId: SYNC_ACCOUNT, ticketId: BigInt(ticketId), reason: 'duplicate' },
      });
      // a 429 two minutes long, as the drain or another instance recorded it
      const pausedUntil = new Date(Date.now() + 120_000);
      await h.db.prisma.ticketWritePause.create({ data: { accountId: SYNC_ACCOUNT, pausedUntil } });
      try {
        const refused = await asAgent(ticketId, '/retry-link', {});
        const answeredAt = Date.now();
        // answered with the rest of the pause, not after waiting it out
        expect(refused.status).toBe(503);
        const { error } = refused.body as ErrorBody;
        expect(error.code).toBe('zendesk_limited');
        expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(
          Math.floor((pausedUntil.getTime() - answeredAt) / 1000),
        );
        expect(error.retryAfterSeconds).toBeLessThanOrEqual(120);
        expect(refused.headers.get('retry-after')).toBe(String(error.retryAfterSeconds));
        // nothing was cleared, queued or sent
        expect(
          await h.db.prisma.reportAttempt.count({ where: { ticketId: BigInt(ticketId) } }),
        ).toBe(1);
        const entry = await h.db.prisma.reconciliationEntry.findFirstOrThrow({
          where: { accountId: SYNC_ACCOUNT, ticketId: BigInt(ticketId) },
        });
        expect(entry.resolvedAt).toBeNull();
        expect(await reportJobsOf(ticketId)).toHaveLength(0);
        expect((await h.readTicket(ticketId)).ticket.tags).toContain('incident_unlinked');
        expect(
          await h.db.prisma.ticketWriteLog.count({ where: { ticketId: BigInt(ticketId) } }),
        ).toBe(0);
      } finally {
        await h.db.prisma.ticketWritePause.deleteMany({ where: { accountId: SYNC_ACCOUNT } });
      }
      expect((await asAgent(ticketId, '/retry-link', {})).status).toBe(202);
      expect((await h.readTicket(ticketId)).ticket.tags).not.toContain('incident_unlinked');
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

describe('agent check', () => {
  const user = (fields: Record<string, unknown>) => ({ id: 7, email: 'a@x.example', ...fields });
  const ctxOf = (accountId: string, fields: Record<string, unknown>, calls: string[] = []) =>
    ({
      accountId,
      zendesk: {
        users: {
          show: async (id: number) => {
            calls.push(`${accountId}:${id}`);
            return user(fields);
          },
          groupMemberships: async () => [{ user_id: 7, group_id: 70 }],
        },
      },
    }) as unknown as AccountContext;

  it('reads a user once per account and agent within the TTL, again after it or when fresh', async () => {
    let clock = 0;
    const calls: string[] = [];
    const checker = createAgentChecker({ ttlMs: 1_000, now: () => new Date(clock) });
    const agent = ctxOf('A', { role: 'agent' }, calls);
    expect(await checker.check(agent, 7)).toMatchObject({
      ok: true,
      access: { email: 'a@x.example', canAct: true },
    });
    await checker.check(agent, 7);
    // another account never shares the cached answer
    expect((await checker.check(ctxOf('B', { role: 'end-user' }, calls), 7)).ok).toBe(false);
    await checker.check(agent, 7, { fresh: true });
    clock = 1_001;
    await checker.check(agent, 7);
    expect(calls).toEqual(['A:7', 'B:7', 'A:7', 'A:7']);
  });

  it('refuses end users, suspended users and chat-only agents; light agents and contributors only read', async () => {
    const checker = createAgentChecker({ ttlMs: 0, now: () => new Date() });
    for (const fields of [
      { role: 'end-user' },
      { role: 'agent', suspended: true },
      { role: 'agent', active: false },
      { role: 'agent', role_type: 2 },
    ])
      expect((await checker.check(ctxOf('A', fields), 7)).ok).toBe(false);
    for (const roleType of [1, 3]) {
      const check = await checker.check(ctxOf('A', { role: 'agent', role_type: roleType }), 7);
      expect(check).toMatchObject({ ok: true, access: { canAct: false } });
    }
    const admin = await checker.check(ctxOf('A', { role: 'admin', role_type: 4 }), 7);
    expect(admin).toMatchObject({ ok: true, access: { canAct: true, admin: true } });
  });

  it('sees tickets as Zendesk’s ticket restriction says', () => {
    const access = (fields: Partial<AgentAccess>): AgentAccess => ({
      userId: 7,
      email: 'a@x.example',
      name: 'Ada Agent',
      admin: false,
      canAct: true,
      ticketRestriction: null,
      organizationId: 30,
      groupIds: new Set([70]),
      ...fields,
    });
    const ticket = { id: 1, tags: [], custom_fields: [] };
    const inGroup = { ...ticket, group_id: 70, organization_id: 31, requester_id: 9 };
    const ofOrg = { ...ticket, group_id: 71, organization_id: 30, requester_id: 9 };
    const requested = { ...ticket, group_id: 71, organization_id: 31, requester_id: 7 };
    const assigned = { ...ticket, group_id: 71, organization_id: 31, assignee_id: 7 };
    const see = (restriction: string | null) =>
      [inGroup, ofOrg, requested, assigned].map((t) =>
        maySeeTicket(access({ ticketRestriction: restriction }), t),
      );
    expect(see(null)).toEqual([true, true, true, true]);
    expect(see('groups')).toEqual([true, false, false, true]);
    expect(see('organization')).toEqual([false, true, false, true]);
    expect(see('requested')).toEqual([false, false, true, true]);
    expect(see('assigned')).toEqual([false, false, false, true]);
    expect(see('something_new')).toEqual([false, false, false, true]);
    expect(maySeeTicket(access({ admin: true, ticketRestriction: 'assigned' }), inGroup)).toBe(
      true,
    );
  });
});

// Over real HTTP, both sandboxes in-process and two installed accounts: the threats found
// in a ticket, the duplicates the account already has for one, reporting a found threat and linking
// to the existing incident instead. Who acts is the session's agent; values come from the ticket.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, type PgBoss } from '@incident-desk/db';
import { createIncidentClient } from '@incident-desk/incident-api';
import { seedDemo, type DemoSeed } from '@incident-desk/zendesk-sandbox';
import { ZendeskClient } from '@incident-desk/zendesk-api';
import type { AccountContext } from '../src/accounts/account-context';
import { saveOwnDomains } from '../src/accounts/account-configuration';
import { errorHandler } from '../src/http/app-error';
import { TICKET_EVENT_QUEUE, type TicketEventJob } from '../src/jobs/ticket-event-job';
import { createInbox } from '../src/ingest/inbox';
import { sidebarApiRouter } from '../src/sidebar-api';
import { createSidebarSessions, type SidebarSessions } from '../src/sidebar-api/sidebar-sessions';
import {
  startTicketSyncHarness,
  SYNC_ACCOUNT,
  type TicketSyncHarness,
} from './support/sync-ticket-harness';
import { backends } from './support/test-database';

const ACCOUNT_B = '00000000-0000-4000-8000-0000000000b2';

interface ErrorBody {
  error: { code: string; message: string };
}
interface ThreatsBody {
  threats: { value: string; kind: string; display: string; seenIn: Record<string, unknown>[] }[];
}
interface DuplicatesBody {
  value: string;
  display: string;
  linked: { incidentId: string; reference: string | null; ticketId: number | null }[];
  service:
    | {
        state: 'searched';
        incidents: {
          incidentId: string;
          reference: string | null;
          display: string;
          linkedTicketId: number | null;
          followed: boolean;
        }[];
      }
    | { state: 'not_enabled' | 'unavailable' };
}

describe.each(backends)('sidebar threats and duplicates on %s', (backend) => {
  let h: TicketSyncHarness;
  let boss: PgBoss;
  let other: DemoSeed;
  let ctxB: AccountContext;
  let baseUrl: string;
  let closeServer: () => Promise<void>;
  let sessions: SidebarSessions;
  let agentToken: string;
  let agentBToken: string;

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
        accounts: { forAccount: async (id) => (id === SYNC_ACCOUNT ? h.ctx : ctxB) },
        appId: 1,
        distDir: '/nonexistent',
        zendeskOriginOf: () => h.zendeskUrl,
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
    agentToken = (
      await sessions.open({
        accountId: SYNC_ACCOUNT,
        installationId: 1,
        userId: h.demo.agentIds[0],
      })
    ).token;
    agentBToken = (
      await sessions.open({ accountId: ACCOUNT_B, installationId: 1, userId: other.agentIds[0] })
    ).token;
  });

  afterAll(async () => {
    await closeServer?.();
    await h?.close();
  });

  async function call(
    ticketId: number,
    token: string | null,
    route: string,
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
  const asAgent = (ticketId: number, route: string, body?: unknown) =>
    call(ticketId, agentToken, route, body);
  const codeOf = (answer: { body: unknown }) => (answer.body as ErrorBody).error.code;

  async function seedIncident(input: Record<string, unknown>): Promise<{ id: string }> {
    const response = await fetch(`${h.incidentUrl}/_sandbox/incidents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: 'cl_demo_parent', emitEvents: false, ...input }),
    });
    expect(response.status).toBeLessThan(300);
    return (await response.json()) as { id: string };
  }

  const fieldOf = (ticket: { custom_fields: { id: number; value: unknown }[] }, id: number) =>
    ticket.custom_fields.find((field) => field.id === id)?.value ?? null;

  async function reportJobsOf(ticketId: number) {
    const jobs = await boss.findJobs<TicketEventJob>(TICKET_EVENT_QUEUE);
    return jobs.filter((job) => job.data.body.ticketId === ticketId);
  }

  let counter = 0;
  const unique = (name: string) => `${name}-${backend}-${(counter += 1)}`;

  /** The ticket's updates counted in the account's shared budget. */
  const writesCounted = (ticketId: number) =>
    h.db.prisma.ticketWriteLog.count({
      where: { accountId: SYNC_ACCOUNT, ticketId: BigInt(ticketId) },
    });

  it('refuses every new route without a session (401)', async () => {
    const ticketId = await h.createTicket({ tags: [] });
    for (const [route, body] of [
      ['/threats', undefined],
      ['/duplicates?value=evil.example', undefined],
      ['/threats/report', { value: 'evil.example', mode: 'takedown' }],
      ['/link-existing', { value: 'evil.example' }],
    ] as const) {
      const answer = await call(ticketId, null, route, body);
      expect(answer.status, route).toBe(401);
      expect(codeOf(answer)).toBe('invalid_session');
    }
  });

  it('lets a light agent read threats and duplicates but neither report nor link (403)', async () => {
    const light = h.zendeskSandbox.createUser('demo', {
      name: `Lee ${backend}`,
      email: `lee-threats-${backend}@demo.example`,
      role: 'agent',
      role_type: 1,
    });
    const token = (
      await sessions.open({ accountId: SYNC_ACCOUNT, installationId: 1, userId: light.id })
    ).token;
    const ticketId = await h.createTicket({ tags: [], body: 'see https://light.example/x' });
    expect((await call(ticketId, token, '/threats')).status).toBe(200);
    const value = encodeURIComponent('https://light.example/x');
    expect((await call(ticketId, token, `/duplicates?value=${value}`)).status).toBe(200);
    for (const [route, body] of [
      ['/threats/report', { value: 'https://light.example/x', mode: 'takedown' }],
      ['/link-existing', { value: 'https://light.example/x' }],
    ] as const) {
      const refused = await call(ticketId, token, route, body);
      expect(refused.status).toBe(403);
      expect(codeOf(refused)).toBe('read_only');
    }
    expect(await reportJobsOf(ticketId)).toHaveLength(0);
  });

  describe('threats found in the ticket', () => {
    it('lists the conversation’s threats, deduplicated and defanged, with where each was seen', async () => {
      const ticketId = await h.createTicket({
        tags: [],
        body: 'Got a text from +44 7700 900123 linking hxxps[:]//parcel-hold[.]example/pay, sender billing@parcel-hold.example. Invoice attached: invoice.pdf. To: erin@customer.example',
      });
      await h.addComment(ticketId, {
        authorId: h.demo.agentIds[0],
        body: 'Checked https://parcel-hold.example/pay again; see https://demo.zendesk.com/agent/tickets/1. Write to alex@demo.example.',
        public: false,
      });
      await h.addComment(ticketId, {
        authorId: h.demo.agentIds[0],
        body: '[incident-desk] Reported to the incident service for takedown: hxxps[:]//noted[.]example.',
        public: false,
      });
      const answer = await asAgent(ticketId, '/threats');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      const { threats } = answer.body as ThreatsBody;
      // the best takedown candidate first: the URL, then the address, then the phone
      expect(threats.map((t) => [t.kind, t.value, t.display])).toEqual([
        ['url', 'https://parcel-hold.example/pay', 'hxxps[:]//parcel-hold[.]example/pay'],
        ['email', 'billing@parcel-hold.example', 'billing[@]parcel-hold[.]example'],
        ['phone', '+447700900123', '+447700900123'],
      ]);
      const url = threats[0]!;
      expect(url.seenIn).toEqual([
        expect.objectContaining({ in: 'comment', index: 0, public: true, author: 'end-user' }),
        expect.objectContaining({ in: 'comment', index: 1, public: false, author: 'agent' }),
      ]);
    });

    it('leaves out the client’s own domains (an admin setting) and the well-known sites themselves', async () => {
      const body =
        'Mail from support@demo-parent.example (really? see https://demo-parent.example/help and ' +
        'login.demo-parent.example) sent me to hxxps[:]//demo-parent-secure[.]example/login. ' +
        'I searched google.com and https://www.microsoft.com/ and wrote to abuse@apple.com; ' +
        'the form is https://docs.google.com/forms/d/e/1FAIpQ/viewform, the sender scam.desk@gmail.com.';
      const ticketId = await h.createTicket({ tags: [], body });
      const values = async () =>
        ((await asAgent(ticketId, '/threats')).body as ThreatsBody).threats.map((t) => t.value);
      const everyOwn = [
        'https://demo-parent.example/help',
        'login.demo-parent.example',
        'support@demo-parent.example',
      ];
      expect(await values()).toEqual(expect.arrayContaining(everyOwn));
      await saveOwnDomains(h.db, SYNC_ACCOUNT, ['Demo-Parent.example']);
      try {
        expect(await values()).toEqual([
          'https://demo-parent-secure.example/login',
          'https://docs.google.com/forms/d/e/1FAIpQ/viewform',
          'scam.desk@gmail.com',
        ]);
        // what is left out cannot be reported either
        const own = await asAgent(ticketId, '/threats/report', {
          value: 'login.demo-parent.example',
          mode: 'takedown',
        });
        expect(codeOf(own)).toBe('threat_not_in_ticket');
      } finally {
        await saveOwnDomains(h.db, SYNC_ACCOUNT, []);
      }
    });

    it('returns hostile values inert: defanged display, JSON only', async () => {
      const ticketId = await h.createTicket({
        tags: [],
        body: 'see https://evil.example/"><img src=x onerror=alert(1)>',
      });
      const answer = await asAgent(ticketId, '/threats');
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      const [threat] = (answer.body as ThreatsBody).threats;
      expect(threat!.display.startsWith('hxxps[:]//evil[.]example/')).toBe(true);
      expect(threat!.display).not.toMatch(/https?:\/\//);
    });

    it('answers 404 for another account’s ticket and for a ticket that does not exist', async () => {
      const ticketOfA = await h.createTicket({ tags: [], body: 'https://a-only.example/x' });
      const fromB = await call(ticketOfA, agentBToken, '/threats');
      // account B's client reads B's tickets only: A's ticket does not exist for it
      expect(fromB.status).toBe(404);
      expect(codeOf(fromB)).toBe('ticket_not_found');
      expect((await asAgent(987_654_321, '/threats')).status).toBe(404);
    });
  });

  describe('duplicates', () => {
    it('finds the incident linked to another ticket by the exact normalised value only, named by its reference', async () => {
      const host = unique('dup');
      const elsewhere = await h.createTicket({ tags: [] });
      await h.db.prisma.incidentLink.create({
        data: {
          accountId: SYNC_ACCOUNT,
          incidentId: `list${host}`,
          reportRef: `inc_${host}`,
          ticketId: BigInt(elsewhere),
          threatValue: `https://${host}.example/login`,
        },
      });
      const ticketId = await h.createTicket({
        tags: [],
        body: `See hxxps[:]//${host.toUpperCase()}[.]example/login and https://${host}.example/login/2`,
      });
      const defanged = encodeURIComponent(`hxxps[:]//${host.toUpperCase()}[.]example/login`);
      const same = await asAgent(ticketId, `/duplicates?value=${defanged}`);
      expect(same.status).toBe(200);
      expect((same.body as DuplicatesBody).linked).toEqual([
        { incidentId: `list${host}`, reference: `inc_${host}`, ticketId: elsewhere },
      ]);
      // a longer or shorter URL on the same host is a different threat
      const like = await asAgent(
        ticketId,
        `/duplicates?value=${encodeURIComponent(`https://${host}.example/login/2`)}`,
      );
      expect((like.body as DuplicatesBody).linked).toEqual([]);
    });

    it('answers only for a threat of the caller’s own ticket (422 otherwise)', async () => {
      const host = unique('probe');
      const elsewhere = await h.createTicket({ tags: [], body: `https://${host}.example/x` });
      await h.db.prisma.incidentLink.create({
        data: {
          accountId: SYNC_ACCOUNT,
          incidentId: `inc_${host}`,
          ticketId: BigInt(elsewhere),
          threatValue: `https://${host}.example/x`,
        },
      });
      const ticketId = await h.createTicket({
        tags: [],
        threat: 'saved-threat.example',
        body: 'nothing here',
      });
      const probe = await asAgent(
        ticketId,
        `/duplicates?value=${encodeURIComponent(`https://${host}.example/x`)}`,
      );
      expect(probe.status).toBe(422);
      expect(codeOf(probe)).toBe('threat_not_in_ticket');
      expect(JSON.stringify(probe.body)).not.toContain(String(elsewhere));
      // the saved Threat field is one of the ticket's threats
      expect((await asAgent(ticketId, '/duplicates?value=saved-threat.example')).status).toBe(200);
    });

    it('shows a restricted agent only the tickets they may open: the others are counted, never named', async () => {
      const host = unique('hidden');
      const ana = h.zendeskSandbox.createUser('demo', {
        name: `Ana ${host}`,
        email: `ana-${host}@demo.example`,
        role: 'agent',
        ticket_restriction: 'assigned',
      });
      const token = (
        await sessions.open({ accountId: SYNC_ACCOUNT, installationId: 1, userId: ana.id })
      ).token;
      const hidden = await h.createTicket({ tags: [] });
      const mine = await h.createTicket({ tags: [] });
      const value = `https://${host}.example/p`;
      const serviceIncident = await seedIncident({ url: `https://${host}.example/q` });
      await h.db.prisma.incidentLink.createMany({
        data: [
          {
            accountId: SYNC_ACCOUNT,
            incidentId: `inc_hidden_${host}`,
            ticketId: BigInt(hidden),
            threatValue: value,
          },
          {
            accountId: SYNC_ACCOUNT,
            incidentId: serviceIncident.id,
            reportRef: `inc_ref_${host}`,
            ticketId: BigInt(mine),
          },
        ],
      });
      const ticketId = await h.createTicket({
        tags: [],
        body: `links ${value} and https://${host}.example/q`,
      });
      for (const id of [ticketId, mine])
        await h.ctx.zendesk.tickets.update(id, { assignee_id: ana.id });

      const linked = await call(ticketId, token, `/duplicates?value=${encodeURIComponent(value)}`);
      expect(linked.status).toBe(200);
      expect((linked.body as DuplicatesBody).linked).toEqual([
        { incidentId: `inc_hidden_${host}`, reference: null, ticketId: null },
      ]);
      expect(JSON.stringify(linked.body)).not.toContain(`${hidden}`);
      // an agent who sees every ticket is told which one
      const all = await asAgent(ticketId, `/duplicates?value=${encodeURIComponent(value)}`);
      expect((all.body as DuplicatesBody).linked[0]!.ticketId).toBe(hidden);

      const atService = await call(
        ticketId,
        token,
        `/duplicates?value=${encodeURIComponent(`https://${host}.example/q`)}`,
      );
      const { service } = atService.body as DuplicatesBody;
      expect(service).toEqual({
        state: 'searched',
        incidents: [
          {
            incidentId: serviceIncident.id,
            reference: `inc_ref_${host}`,
            display: `hxxps[:]//${host}[.]example/q`,
            linkedTicketId: mine,
            followed: true,
          },
        ],
      });
      await h.ctx.zendesk.tickets.update(mine, { assignee_id: h.demo.agentIds[0]! });
      const afterReassign = await call(
        ticketId,
        token,
        `/duplicates?value=${encodeURIComponent(`https://${host}.example/q`)}`,
      );
      expect((afterReassign.body as DuplicatesBody).service).toMatchObject({
        incidents: [{ linkedTicketId: null, followed: true }],
      });

      // link-existing refuses, naming neither the hidden ticket nor the service's id
      const refused = await call(ticketId, token, '/link-existing', { value });
      expect(codeOf(refused)).toBe('followed_elsewhere');
      expect((refused.body as ErrorBody).error.message).toBe(
        'another ticket already follows this incident',
      );
    });

    it('finds an incident at the service by its exact subject, never a lookalike the search lists', async () => {
      const host = unique('svc');
      const exact = await seedIncident({ url: `https://${host}.example/a` });
      await seedIncident({ url: `https://${host}.example/a/longer` });
      const ticketId = await h.createTicket({ tags: [], body: `https://${host}.example/a` });
      const answer = await asAgent(
        ticketId,
        `/duplicates?value=${encodeURIComponent(`https://${host}.example/a`)}`,
      );
      const { service } = answer.body as DuplicatesBody;
      expect(service.state).toBe('searched');
      if (service.state !== 'searched') return;
      expect(service.incidents.map((i) => i.incidentId)).toEqual([exact.id]);
      expect(service.incidents[0]).toMatchObject({
        display: `hxxps[:]//${host}[.]example/a`,
        // the service's search gives no reference: none is made up
        reference: null,
        linkedTicketId: null,
        followed: false,
      });
    });

    it('says the service search is not enabled when the account’s key has no resolutions', async () => {
      const ticketOfB = other.ticketIds[2]!;
      await ctxB.zendesk.tickets.update(ticketOfB, {
        custom_fields: [{ id: other.threatFieldId, value: 'evil.example' }],
      });
      const answer = await call(ticketOfB, agentBToken, '/duplicates?value=evil.example');
      expect(answer.status).toBe(200);
      expect((answer.body as DuplicatesBody).service).toEqual({ state: 'not_enabled' });
    });

    it('refuses a missing or oversized value (400), and another account’s links stay unseen', async () => {
      const ticketId = await h.createTicket({ tags: [] });
      expect(codeOf(await asAgent(ticketId, '/duplicates'))).toBe('invalid_value');
      const long = `https://x.example/${'a'.repeat(2100)}`;
      expect((await asAgent(ticketId, `/duplicates?value=${long}`)).status).toBe(400);
      await h.db.prisma.incidentLink.create({
        data: {
          accountId: SYNC_ACCOUNT,
          incidentId: 'inc_only_in_a',
          ticketId: 777_001n,
          threatValue: 'only-in-a.example',
        },
      });
      const ticketOfB = other.ticketIds[2]!;
      await ctxB.zendesk.tickets.update(ticketOfB, {
        custom_fields: [{ id: other.threatFieldId, value: 'only-in-a.example' }],
      });
      const fromB = await call(ticketOfB, agentBToken, '/duplicates?value=only-in-a.example');
      expect(fromB.status).toBe(200);
      expect((fromB.body as DuplicatesBody).linked).toEqual([]);
    });
  });

  describe('report a found threat', () => {
    it('puts the found value into the Threat field and queues the report', async () => {
      const host = unique('found');
      const ticketId = await h.createTicket({
        tags: [],
        body: `The fake page is hxxps[:]//${host}[.]example/login`,
      });
      const answer = await asAgent(ticketId, '/threats/report', {
        value: `https://${host}.example/login`,
        mode: 'monitor',
      });
      expect(answer.status).toBe(202);
      const { ticket } = await h.readTicket(ticketId);
      expect(fieldOf(ticket, h.demo.threatFieldId)).toBe(`https://${host}.example/login`);
      expect(await writesCounted(ticketId)).toBe(1);
      const jobs = await reportJobsOf(ticketId);
      expect(jobs.map((job) => job.data.body)).toEqual([
        { kind: 'report', ticketId, mode: 'monitor' },
      ]);
    });

    it('refuses a value the ticket does not hold (422) and a linked ticket (409)', async () => {
      const ticketId = await h.createTicket({ tags: [], body: 'https://real.example/x' });
      const foreign = await asAgent(ticketId, '/threats/report', {
        value: 'https://not-in-ticket.example',
        mode: 'takedown',
      });
      expect(foreign.status).toBe(422);
      expect(codeOf(foreign)).toBe('threat_not_in_ticket');
      expect(await reportJobsOf(ticketId)).toHaveLength(0);
      expect((await h.readTicket(ticketId)).ticket.custom_fields).not.toContainEqual(
        expect.objectContaining({
          id: h.demo.threatFieldId,
          value: 'https://not-in-ticket.example',
        }),
      );

      await h.ctx.zendesk.tickets.update(ticketId, {
        custom_fields: [{ id: h.demo.incidentFieldId, value: 'inc_already' }],
      });
      const linked = await asAgent(ticketId, '/threats/report', {
        value: 'https://real.example/x',
        mode: 'takedown',
      });
      expect(codeOf(linked)).toBe('already_linked');
      expect(
        (await asAgent(ticketId, '/threats/report', { value: 'x', mode: 'nope' })).status,
      ).toBe(400);
    });
  });

  describe('link this ticket instead', () => {
    it('links to an incident the service has and no ticket follows: durable link, field, tag', async () => {
      const host = unique('link');
      const incident = await seedIncident({ url: `https://${host}.example/p` });
      const ticketId = await h.createTicket({
        tags: [],
        body: `phish at https://${host}.example/p`,
      });
      const answer = await asAgent(ticketId, '/link-existing', {
        value: `hxxps[:]//${host}[.]example/p`,
        // whatever else the body says is not read: the incident is the one found for the value
        incidentId: 'inc_chosen_by_browser',
      });
      expect(answer.status).toBe(200);
      const link = await h.db.prisma.incidentLink.findUnique({
        where: { accountId_ticketId: { accountId: SYNC_ACCOUNT, ticketId: BigInt(ticketId) } },
      });
      expect(link).toMatchObject({
        incidentId: incident.id,
        threatValue: `https://${host}.example/p`,
      });
      const { ticket } = await h.readTicket(ticketId);
      expect(fieldOf(ticket, h.demo.incidentFieldId)).toBe(incident.id);
      expect(ticket.tags).toContain('incident_linked');
      const [linkedNote] = await h.notesContaining(ticketId, 'instead of a new report');
      // the agent is named as Zendesk names them, not by user id or email
      expect(linkedNote!.body).toContain(`by Alex Agent instead of a new report`);
      expect(await writesCounted(ticketId)).toBe(1);
      // linked now: a second press is refused
      expect(
        codeOf(await asAgent(ticketId, '/link-existing', { value: `https://${host}.example/p` })),
      ).toBe('already_linked');
    });

    it('writes the Incident Status field with the link, in the same update', async () => {
      const host = unique('status');
      await seedIncident({ url: `https://${host}.example/p`, status: 'case_building' });
      const ticketId = await h.createTicket({
        tags: [],
        body: `phish at https://${host}.example/p`,
      });
      const answer = await asAgent(ticketId, '/link-existing', {
        value: `https://${host}.example/p`,
      });
      expect(answer.status).toBe(200);
      const { ticket } = await h.readTicket(ticketId);
      expect(fieldOf(ticket, h.demo.statusFieldId)).toBe('incident_status_case_building');
      expect(await writesCounted(ticketId)).toBe(1);
    });

    it('while Zendesk writes are paused: zendesk_limited at once, nothing linked, nothing written', async () => {
      const host = unique('paused');
      await seedIncident({ url: `https://${host}.example/p` });
      const ticketId = await h.createTicket({
        tags: [],
        body: `phish at https://${host}.example/p`,
      });
      await h.db.prisma.ticketWritePause.create({
        data: { accountId: SYNC_ACCOUNT, pausedUntil: new Date(Date.now() + 45_000) },
      });
      try {
        const link = await asAgent(ticketId, '/link-existing', {
          value: `https://${host}.example/p`,
        });
        const report = await asAgent(ticketId, '/threats/report', {
          value: `https://${host}.example/p`,
          mode: 'takedown',
        });
        for (const answer of [link, report]) {
          expect(answer.status).toBe(503);
          // Zendesk holds it back, not the incident service: the code says which
          expect(codeOf(answer)).toBe('zendesk_limited');
          const seconds = (answer.body as { error: { retryAfterSeconds: number } }).error
            .retryAfterSeconds;
          expect(seconds).toBeGreaterThan(0);
          expect(seconds).toBeLessThanOrEqual(45);
        }
        expect(
          await h.db.prisma.incidentLink.findMany({ where: { ticketId: BigInt(ticketId) } }),
        ).toEqual([]);
        expect(await reportJobsOf(ticketId)).toHaveLength(0);
        expect(await writesCounted(ticketId)).toBe(0);
        const { ticket } = await h.readTicket(ticketId);
        expect(fieldOf(ticket, h.demo.threatFieldId) ?? null).toBeNull();
      } finally {
        await h.db.prisma.ticketWritePause.deleteMany({ where: { accountId: SYNC_ACCOUNT } });
      }
      expect(
        (await asAgent(ticketId, '/link-existing', { value: `https://${host}.example/p` })).status,
      ).toBe(200);
    });

    it('when Zendesk refuses the Threat field update (500): zendesk_unavailable, nothing reported', async () => {
      const host = unique('zd500');
      const ticketId = await h.createTicket({
        tags: [],
        body: `phish at https://${host}.example/p`,
      });
      await h.zendeskFault({
        method: 'PUT',
        path: `/api/v2/tickets/${ticketId}.json`,
        kind: 'error',
        status: 500,
        times: 5,
      });
      try {
        const answer = await asAgent(ticketId, '/threats/report', {
          value: `https://${host}.example/p`,
          mode: 'takedown',
        });
        expect(answer.status).toBe(502);
        expect(codeOf(answer)).toBe('zendesk_unavailable');
      } finally {
        await h.clearFaults();
      }
      // the report is queued only once the Threat field is written: nothing reached the service
      expect(await reportJobsOf(ticketId)).toHaveLength(0);
      const { ticket } = await h.readTicket(ticketId);
      expect(fieldOf(ticket, h.demo.threatFieldId) ?? null).toBeNull();
    });

    it('refuses to link an incident another ticket follows: one ticket per incident, nothing written', async () => {
      const host = unique('follow');
      const first = await h.createTicket({ tags: [] });
      await h.db.prisma.incidentLink.create({
        data: {
          accountId: SYNC_ACCOUNT,
          incidentId: `inc_${host}`,
          ticketId: BigInt(first),
          threatValue: `${host}.example`,
        },
      });
      const ticketId = await h.createTicket({ tags: [], body: `the domain ${host}.example again` });
      const answer = await asAgent(ticketId, '/link-existing', { value: `${host}.example` });
      expect(answer.status).toBe(409);
      expect(codeOf(answer)).toBe('followed_elsewhere');
      const { ticket } = await h.readTicket(ticketId);
      expect(fieldOf(ticket, h.demo.incidentFieldId) ?? null).toBeNull();
      const links = await h.db.prisma.incidentLink.findMany({
        where: { accountId: SYNC_ACCOUNT, incidentId: `inc_${host}` },
      });
      expect(links.map((l) => Number(l.ticketId))).toEqual([first]);
    });

    it('refuses a value not in the ticket, a threat with no incident, and another account’s ticket', async () => {
      const host = unique('none');
      const ticketId = await h.createTicket({
        tags: [],
        body: `only https://${host}.example here`,
      });
      expect(
        codeOf(await asAgent(ticketId, '/link-existing', { value: 'https://elsewhere.example' })),
      ).toBe('threat_not_in_ticket');
      const none = await asAgent(ticketId, '/link-existing', { value: `https://${host}.example` });
      expect(none.status).toBe(404);
      expect(codeOf(none)).toBe('no_existing_incident');
      const fromB = await call(ticketId, agentBToken, '/link-existing', {
        value: `https://${host}.example`,
      });
      expect(fromB.status).toBe(404);
      expect(
        await h.db.prisma.incidentLink.findMany({ where: { ticketId: BigInt(ticketId) } }),
      ).toEqual([]);
    });
  });
});

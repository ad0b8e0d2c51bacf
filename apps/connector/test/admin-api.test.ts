// The admin page's sign-in and JSON API over real HTTP against the composed connector and both
// sandboxes: who may sign in, every route refused without a session, with another account's
// session and without the CSRF token, and each action doing what the page promises.
import { createHash } from 'node:crypto';
import {
  DEMO_API_KEY,
  DEMO_PARENT_CLIENT_ID,
  OTHER_ORG_API_KEY,
  OTHER_ORG_CLIENT_ID,
} from '@incident-desk/incident-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_SETUP_QUEUE } from '../src/accounts/setup-job';
import { TICKET_EVENT_QUEUE } from '../src/jobs/ticket-event-job';
import { cookiesSet, followCallback } from './accounts-harness';
import { startAdminHarness, type AdminHarness, type SignedIn } from './admin-harness';
import { eventually } from './support/eventually';
import { backends } from './support/test-database';
import { secretBinding } from '../src/secrets/secret-bindings';

describe.each(backends)('admin page API (%s)', (backend) => {
  let h: AdminHarness;
  let acme: { adminId: number; agentId: number };
  let globex: { adminId: number; agentId: number };
  let acmeId: string;
  let globexId: string;
  let acmeSession: SignedIn;
  let globexSession: SignedIn;
  let incidentId: string;

  const overview = async (session: SignedIn) =>
    (await h.api(session, 'GET', '/admin/api/overview')).body as {
      account: { subdomain: string };
      connection: { state: string; scopes: string[]; missingScopes: string[] };
      setup: {
        state: string;
        report: {
          scopeAfter: string | null;
          message: string;
          outcome?: { code: string };
          webhookTest?: unknown;
          narrowing?: unknown;
        } | null;
      };
      settings: Record<string, unknown>;
      incident: { apiKey: string; clientId: string | null };
    };
  const setupState = async (accountId: string) =>
    (await h.connector.db.prisma.accountConfiguration.findUniqueOrThrow({ where: { accountId } }))
      .setupState;

  beforeAll(async () => {
    h = await startAdminHarness(backend);
    ({ users: acme, accountId: acmeId, session: acmeSession } = await h.installAndSignIn('acme'));
    ({
      users: globex,
      accountId: globexId,
      session: globexSession,
    } = await h.installAndSignIn('globex'));
    await h.createAccount('initech');
    const list = await fetch(`${h.incidentUrl}/v1/incidents`, {
      headers: { 'x-api-key': DEMO_API_KEY },
    });
    incidentId = ((await list.json()) as { data: { id: string }[] }).data[0]!.id;
  });
  afterAll(async () => {
    await h?.close();
  });

  describe('sign-in with Zendesk', () => {
    it('an admin of the installed account gets an HttpOnly, SameSite=Strict session for it', async () => {
      const callback = await followCallback(await h.signInCallback('acme', acme.adminId), {
        redirect: 'manual',
      });
      expect(callback.status).toBe(303);
      expect(callback.headers.get('location')).toBe('/admin/');
      const cookie = callback.headers
        .getSetCookie()
        .find((set) => set.startsWith('incident-desk-admin='))!;
      expect(cookie).toMatch(/^incident-desk-admin=[A-Za-z0-9_-]{43};/);
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Strict');
      expect(cookie).toContain('Path=/admin');
      const session = await h.api(acmeSession, 'GET', '/admin/api/session');
      expect(session.status).toBe(200);
      expect(session.body).toMatchObject({ subdomain: 'acme', userName: 'Ada Admin' });
      // only the hash of the cookie value is stored
      const value = cookie.split(';')[0]!.split('=')[1]!;
      const rows = await h.connector.db.prisma.adminSession.findMany();
      expect(
        JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
      ).not.toContain(value);
    });

    it('asks Zendesk for users:read and webhooks:read only, with a single-use state marked for sign-in', async () => {
      const start = await fetch(`${h.connectorUrl}/admin/sign-in?subdomain=acme`, {
        redirect: 'manual',
      });
      const authorize = new URL(start.headers.get('location')!);
      expect(authorize.searchParams.get('scope')).toBe('users:read webhooks:read');
      expect(authorize.searchParams.get('redirect_uri')).toBe(`${h.connectorUrl}/oauth/callback`);
      const state = await h.connector.db.prisma.oAuthInstallState.findUniqueOrThrow({
        where: { state: authorize.searchParams.get('state')! },
      });
      expect(state.purpose).toBe('admin_sign_in');
    });

    it('refuses an agent of the account: no session', async () => {
      const callback = await followCallback(await h.signInCallback('acme', acme.agentId), {
        redirect: 'manual',
      });
      expect(callback.status).toBe(403);
      expect(await callback.text()).toContain('Only a Zendesk admin of acme');
      expect(cookiesSet(callback)).toEqual([]);
    });

    it('refuses an admin of an account where incident-desk is not installed', async () => {
      const users = (await (
        await fetch(`${h.sandboxUrl}/_sandbox/accounts/initech/users`)
      ).json()) as {
        users: { id: number; role: string }[];
      };
      const admin = users.users.find((user) => user.role === 'admin')!;
      const callback = await followCallback(await h.signInCallback('initech', admin.id), {
        redirect: 'manual',
      });
      expect(callback.status).toBe(403);
      expect(await callback.text()).toContain('not installed for initech');
      expect(cookiesSet(callback)).toEqual([]);
    });

    it('refuses a code from another account (state for acme, approved by globex’s admin)', async () => {
      const callbackUrl = await h.signInCallback('acme', globex.adminId, 'globex');
      const callback = await followCallback(callbackUrl, { redirect: 'manual' });
      expect(callback.status).toBe(400);
      expect(cookiesSet(callback)).toEqual([]);
    });

    it('uses a state once: replaying the callback is refused', async () => {
      const callbackUrl = await h.signInCallback('acme', acme.adminId);
      expect((await followCallback(callbackUrl, { redirect: 'manual' })).status).toBe(303);
      const replay = await followCallback(callbackUrl, { redirect: 'manual' });
      expect(replay.status).toBe(400);
      expect(await replay.text()).toContain('already used');
      expect(cookiesSet(replay)).toEqual([]);
    });

    it('a sign-in state cannot install, and an install state cannot sign in', async () => {
      // The install flow's callback with the sign-in's scope would be an install: the purpose
      // travels with the state, not with anything the browser sends.
      const installs = await h.connector.db.prisma.zendeskCredential.count();
      await followCallback(await h.signInCallback('acme', acme.adminId), { redirect: 'manual' });
      expect(await h.connector.db.prisma.zendeskCredential.count()).toBe(installs);
      const credential = await h.connector.db.prisma.zendeskCredential.findUniqueOrThrow({
        where: { accountId: acmeId },
      });
      expect(credential.scope).not.toBe('users:read');
    });

    it('an expired session is refused', async () => {
      const session = await h.signIn('acme', acme.adminId);
      expect((await h.api(session, 'GET', '/admin/api/overview')).status).toBe(200);
      const value = session.cookie.split('=')[1]!;
      await h.connector.db.prisma.adminSession.updateMany({
        where: { tokenHash: createHash('sha256').update(value).digest('base64url') },
        data: { expiresAt: new Date(Date.now() - 1) },
      });
      expect((await h.api(session, 'GET', '/admin/api/overview')).status).toBe(401);
      // the session the other tests use was created before and is untouched
      expect((await h.api(acmeSession, 'GET', '/admin/api/session')).status).toBe(200);
    });

    it('keeps the admin’s Zendesk locale with the session: fr-FR and fr speak French, any other English', async () => {
      const admins = await Promise.all(
        ['fr-FR', 'fr', 'de', 'en-US'].map(async (locale) => {
          const created = await fetch(`${h.sandboxUrl}/_sandbox/accounts/acme/users`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              name: `Admin ${locale}`,
              email: `admin-${locale.toLowerCase()}@acme.example`,
              role: 'admin',
              locale,
            }),
          });
          return ((await created.json()) as { user: { id: number } }).user.id;
        }),
      );
      const locales = [];
      for (const id of admins) {
        const session = await h.signIn('acme', id);
        locales.push((await h.api(session, 'GET', '/admin/api/session')).body.locale);
      }
      expect(locales).toEqual(['fr', 'fr', 'en', 'en']);
      // stored as Zendesk named it
      const stored = await h.connector.db.prisma.adminSession.findMany({
        where: { zendeskUserId: BigInt(admins[0]!) },
      });
      expect(stored.map((row) => row.locale)).toEqual(['fr-FR']);
    });

    it('signing out ends the session', async () => {
      const session = await h.signIn('acme', acme.adminId);
      expect((await h.api(session, 'POST', '/admin/api/sign-out')).status).toBe(204);
      expect((await h.api(session, 'GET', '/admin/api/overview')).status).toBe(401);
    });
  });

  describe('isolation and CSRF', () => {
    let failureId: string;
    let jobId: string;
    const ticketOfA = 424242;
    const forwardOfA = 5_151_515;

    beforeAll(async () => {
      // The installs' setup jobs run in the worker: settled first, so that only B's attempts
      // could change A's state between the snapshots.
      await eventually('the installs’ setup jobs', async () =>
        (await setupState(acmeId)) === 'needs_configuration' &&
        (await setupState(globexId)) === 'needs_configuration'
          ? true
          : undefined,
      );
      failureId = (
        await h.connector.db.prisma.syncFailure.create({
          data: {
            accountId: acmeId,
            queue: TICKET_EVENT_QUEUE,
            ticketId: 1n,
            reason: 'test failure of acme',
            payload: { accountId: acmeId, body: { ticketId: 1 } },
          },
        })
      ).id;
      jobId = (await h.connector.boss.send(
        ACCOUNT_SETUP_QUEUE,
        { accountId: acmeId },
        // its own singleton key: the stately queue may still hold the install's setup job for acme
        { startAfter: 3600, retryLimit: 0, singletonKey: `${acmeId}:dead-letter-fixture` },
      ))!;
      await h.connector.boss.fail(ACCOUNT_SETUP_QUEUE, jobId, { message: 'test failure' });
      await h.connector.db.prisma.reconciliationEntry.create({
        data: { accountId: acmeId, ticketId: BigInt(ticketOfA), reason: 'duplicate' },
      });
      await h.connector.db.prisma.forwardedComment.create({
        data: {
          accountId: acmeId,
          commentId: BigInt(forwardOfA),
          ticketId: BigInt(ticketOfA),
          incidentId: 'inc_of_acme',
          status: 'failed',
          detail: 'test failure of acme',
        },
      });
    });

    // Every route, with what it would change in account A.
    const routes = () =>
      [
        ['GET', '/admin/api/session'],
        ['GET', '/admin/api/overview'],
        ['PUT', '/admin/api/settings', { forwardInternalNotes: true }],
        ['GET', '/admin/api/own-domains'],
        ['PUT', '/admin/api/own-domains', { ownDomains: ['stolen.example'] }],
        ['PUT', '/admin/api/incident-connection', { apiKey: 'stolen', clientId: 'cl_x' }],
        ['POST', '/admin/api/setup/rerun'],
        ['GET', '/admin/api/first-run'],
        ['GET', '/admin/api/zendesk-groups'],
        ['POST', '/admin/api/webhooks/test'],
        ['GET', '/admin/api/dead-letters'],
        ['POST', `/admin/api/dead-letters/comment-forwards/${forwardOfA}/retry`],
        ['POST', `/admin/api/dead-letters/sync-failures/${failureId}/retry`],
        ['POST', `/admin/api/dead-letters/jobs/${ACCOUNT_SETUP_QUEUE}/${jobId}/retry`],
        ['GET', '/admin/api/reconciliation'],
        ['GET', '/admin/api/analytics'],
        ['GET', `/admin/api/analytics?client=${DEMO_PARENT_CLIENT_ID}`],
        ['GET', '/admin/api/analytics.csv?chart=reports-per-week'],
        ['POST', `/admin/api/reconciliation/${ticketOfA}/link`, { incidentId: 'inc_x' }],
        ['POST', `/admin/api/reconciliation/${ticketOfA}/retry`],
        ['POST', '/admin/api/sign-out'],
      ] as [string, string, unknown?][];

    async function stateOfA() {
      const config = await h.connector.db.prisma.accountConfiguration.findUniqueOrThrow({
        where: { accountId: acmeId },
      });
      const failure = await h.connector.db.prisma.syncFailure.findUniqueOrThrow({
        where: { id: failureId },
      });
      const entry = await h.connector.db.prisma.reconciliationEntry.findFirstOrThrow({
        where: { accountId: acmeId, ticketId: BigInt(ticketOfA) },
      });
      const job = await h.connector.boss.findJobs(ACCOUNT_SETUP_QUEUE, { id: jobId });
      return {
        settings: [
          config.forwardInternalNotes,
          config.incidentClientId,
          config.sealedIncidentApiKey,
          config.ownDomains,
        ],
        setup: config.setupState,
        failure: failure.resolvedAt,
        entry: entry.resolvedAt,
        job: job[0]?.state,
        links: await h.connector.db.prisma.incidentLink.count({ where: { accountId: acmeId } }),
        forwards: await h.connector.db.prisma.forwardedComment.count({
          where: { accountId: acmeId, status: 'failed' },
        }),
        sessions: await h.connector.db.prisma.adminSession.count({ where: { accountId: acmeId } }),
      };
    }

    it('every route answers 401 without a session, or with a made-up one, and changes nothing', async () => {
      const before = await stateOfA();
      for (const [method, route, body] of routes()) {
        const none = await h.api(null, method, route, body);
        expect([route, none.status]).toEqual([route, 401]);
        const forged = await h.api(
          { cookie: `incident-desk-admin=${'A'.repeat(43)}`, csrf: 'x' },
          method,
          route,
          body,
        );
        expect([route, forged.status]).toEqual([route, 401]);
      }
      expect(await stateOfA()).toEqual(before);
    });

    it('with account B’s session, no route reaches account A', async () => {
      const before = await stateOfA();
      for (const [method, route, body] of routes()) {
        if (route === '/admin/api/sign-out') continue;
        const answer = await h.api(globexSession, method, route, body);
        if (
          route.includes(failureId) ||
          route.includes(jobId) ||
          route.includes(String(ticketOfA)) ||
          route.includes(String(forwardOfA))
        ) {
          expect([route, answer.status]).toEqual([route, 404]);
        } else {
          expect([route, answer.status]).not.toEqual([route, 401]);
          expect(JSON.stringify(answer.body)).not.toContain('acme');
          expect(JSON.stringify(answer.body)).not.toContain(acmeId);
        }
      }
      // B's own reads show B only
      expect((await overview(globexSession)).account.subdomain).toBe('globex');
      const letters = await h.api(globexSession, 'GET', '/admin/api/dead-letters');
      expect(JSON.stringify(letters.body)).not.toContain(failureId);
      expect(JSON.stringify(letters.body)).not.toContain(jobId);
      const queue = await h.api(globexSession, 'GET', '/admin/api/reconciliation');
      expect(queue.body).toEqual({ entries: [] });
      expect(await stateOfA()).toEqual(before);
    });

    it('refuses state-changing calls without the CSRF token, with a wrong one, or from another origin', async () => {
      const before = await stateOfA();
      const attempts: [string, SignedIn, Record<string, string>][] = [
        ['no token', { cookie: acmeSession.cookie, csrf: '' }, {}],
        ['wrong token', { cookie: acmeSession.cookie, csrf: globexSession.csrf }, {}],
        ['foreign origin', acmeSession, { origin: 'https://evil.example' }],
      ];
      for (const [method, route, body] of routes()) {
        if (method === 'GET') continue;
        for (const [what, session, headers] of attempts) {
          const answer = await h.api(session, method, route, body, headers);
          expect([route, what, answer.status]).toEqual([route, what, 403]);
          expect(answer.body).toMatchObject({ error: { code: 'csrf' } });
        }
      }
      expect(await stateOfA()).toEqual(before);
      // and the owner's own reads still work with the session alone
      expect(
        (await h.api({ cookie: acmeSession.cookie, csrf: '' }, 'GET', '/admin/api/overview'))
          .status,
      ).toBe(200);
    });
  });

  describe('actions against the sandboxes', () => {
    it('shows the connection and, before the incident key is saved, setup waiting for it', async () => {
      await eventually('the install’s setup job', async () =>
        (await setupState(acmeId)) === 'needs_configuration' ? true : undefined,
      );
      const view = await overview(acmeSession);
      expect(view.connection.state).toBe('active');
      expect(view.connection.scopes).toEqual(
        expect.arrayContaining(['read', 'write', 'users:read']),
      );
      expect(view.connection.missingScopes).toEqual([]);
      expect(view.setup.report?.message).toContain('incident API key');
      // the page words it from the code, in the admin's language
      expect(view.setup.report?.outcome).toEqual({ code: 'needs_configuration' });
      expect(view.incident.apiKey).toBe('not_set');
      // no sidebar secret any more: Zendesk signs the sidebar's pages
      expect(JSON.stringify(view)).not.toMatch(/sidebarSecret|shared_secret/);
    });

    it('settings: saved for the account, invalid values refused', async () => {
      const globexBefore = (await overview(globexSession)).settings;
      const saved = await h.api(acmeSession, 'PUT', '/admin/api/settings', {
        forwardInternalNotes: true,
        solveOnTakedownSuccess: true,
        openTicketsForDetectedIncidents: false,
        newTicketGroupId: 1234,
        createZendeskViews: false,
      });
      expect(saved.status).toBe(200);
      expect((await overview(acmeSession)).settings).toEqual({
        forwardInternalNotes: true,
        solveOnTakedownSuccess: true,
        openTicketsForDetectedIncidents: false,
        newTicketGroupId: 1234,
        createZendeskViews: false,
      });
      expect(globexBefore.createZendeskViews).toBe(true);
      expect((await overview(globexSession)).settings).toEqual(globexBefore);
      const bad = await h.api(acmeSession, 'PUT', '/admin/api/settings', { newTicketGroupId: -1 });
      expect(bad.status).toBe(400);
      const unknown = await h.api(acmeSession, 'PUT', '/admin/api/settings', { admin: true });
      expect(unknown.status).toBe(400);
      await h.api(acmeSession, 'PUT', '/admin/api/settings', {
        forwardInternalNotes: false,
        solveOnTakedownSuccess: false,
        openTicketsForDetectedIncidents: true,
        newTicketGroupId: null,
        createZendeskViews: true,
      });
    });

    it('own domains: host names saved lower-cased and once, for the account only; anything else refused', async () => {
      const globexBefore = await h.api(globexSession, 'GET', '/admin/api/own-domains');
      expect(globexBefore.status).toBe(200);
      const saved = await h.api(acmeSession, 'PUT', '/admin/api/own-domains', {
        ownDomains: [' Demo-Parent.example ', 'demo-parent.example', 'help.acme.example.'],
      });
      expect(saved.status).toBe(200);
      expect(saved.body).toEqual({ ownDomains: ['demo-parent.example', 'help.acme.example'] });
      expect((await h.api(acmeSession, 'GET', '/admin/api/own-domains')).body).toEqual({
        ownDomains: ['demo-parent.example', 'help.acme.example'],
      });
      expect((await h.api(globexSession, 'GET', '/admin/api/own-domains')).body).toEqual(
        globexBefore.body,
      );
      for (const ownDomains of [
        ['support@demo-parent.example'],
        ['https://demo-parent.example/'],
        ['localhost'],
        ['a..example'],
        'demo-parent.example',
        Array.from({ length: 51 }, (_, i) => `d${i}.example`),
      ]) {
        const refused = await h.api(acmeSession, 'PUT', '/admin/api/own-domains', { ownDomains });
        expect([ownDomains, refused.status]).toEqual([ownDomains, 400]);
        expect((refused.body.error as { code: string }).code).toBe('invalid_own_domains');
      }
      expect(
        (await h.api(acmeSession, 'PUT', '/admin/api/own-domains', { ownDomains: [], x: 1 }))
          .status,
      ).toBe(400);
      expect((await h.api(acmeSession, 'GET', '/admin/api/own-domains')).body).toEqual({
        ownDomains: ['demo-parent.example', 'help.acme.example'],
      });
      await h.api(acmeSession, 'PUT', '/admin/api/own-domains', { ownDomains: [] });
    });

    it('incident API key: write-only, kept when omitted, never sent back', async () => {
      const missing = await h.api(acmeSession, 'PUT', '/admin/api/incident-connection', {
        clientId: DEMO_PARENT_CLIENT_ID,
      });
      expect(missing.status).toBe(400);
      const saved = await h.api(acmeSession, 'PUT', '/admin/api/incident-connection', {
        apiKey: DEMO_API_KEY,
        clientId: DEMO_PARENT_CLIENT_ID,
        subClientIds: ['cl_demo_retail', DEMO_PARENT_CLIENT_ID],
      });
      expect(saved.status).toBe(200);
      expect(saved.body).toEqual({
        apiKey: 'set',
        clientId: DEMO_PARENT_CLIENT_ID,
        clientName: expect.any(String),
        subClientIds: ['cl_demo_retail'],
        // setup waited for the key: saving it queued setup
        setup: { state: 'queued' },
      });
      const kept = await h.api(acmeSession, 'PUT', '/admin/api/incident-connection', {
        clientId: DEMO_PARENT_CLIENT_ID,
        subClientIds: ['cl_demo_retail'],
      });
      expect(kept.status).toBe(200);
      const view = await h.api(acmeSession, 'GET', '/admin/api/overview');
      expect(JSON.stringify(view.body)).not.toContain(DEMO_API_KEY);
      expect((view.body.incident as { apiKey: string }).apiKey).toBe('set');
      const row = await h.connector.db.prisma.accountConfiguration.findUniqueOrThrow({
        where: { accountId: acmeId },
      });
      expect(row.sealedIncidentApiKey).not.toContain(DEMO_API_KEY);
      expect(
        await h.connector.secretBox.open(
          row.sealedIncidentApiKey!,
          secretBinding.incidentApiKey(acmeId),
        ),
      ).toBe(DEMO_API_KEY);
      // globex gets its own organisation
      await h.api(globexSession, 'PUT', '/admin/api/incident-connection', {
        apiKey: OTHER_ORG_API_KEY,
        clientId: OTHER_ORG_CLIENT_ID,
      });
    });

    it("analytics: the account's own clients only, as JSON and as CSV", async () => {
      const mine = await h.api(acmeSession, 'GET', '/admin/api/analytics');
      expect(mine.status).toBe(200);
      expect((mine.body.clients as { id: string }[]).map((c) => c.id)).toContain(
        DEMO_PARENT_CLIENT_ID,
      );
      // globex's key is another organisation's: acme's client is not one of its clients
      const theirs = await h.api(
        globexSession,
        'GET',
        `/admin/api/analytics?client=${DEMO_PARENT_CLIENT_ID}`,
      );
      expect([theirs.status, (theirs.body.error as { code: string }).code]).toEqual([
        404,
        'unknown_client',
      ]);
      const own = await h.api(globexSession, 'GET', '/admin/api/analytics');
      expect(own.status).toBe(200);
      expect(JSON.stringify(own.body)).not.toContain(DEMO_PARENT_CLIENT_ID);
      expect((own.body.clients as { id: string }[]).map((c) => c.id)).toEqual([
        OTHER_ORG_CLIENT_ID,
      ]);
      const csv = await fetch(`${h.connectorUrl}/admin/api/analytics.csv?chart=credits`, {
        headers: { cookie: acmeSession.cookie },
      });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toContain('text/csv');
      expect(csv.headers.get('content-disposition')).toContain('incident-desk-credits.csv');
      expect((await csv.text()).split('\r\n')[0]).toBe(
        'client id,client,remaining credits,takedowns started in the window',
      );
      const unknown = await h.api(acmeSession, 'GET', '/admin/api/analytics.csv?chart=secrets');
      expect(unknown.status).toBe(400);
    });

    it('"Run setup" while a setup is under way answers with that run and asks for no other', async () => {
      const where = { accountId: acmeId };
      const before = await h.connector.db.prisma.accountConfiguration.findUniqueOrThrow({ where });
      await h.connector.db.prisma.accountConfiguration.update({
        where,
        data: { setupState: 'running' },
      });
      try {
        const during = await h.api(acmeSession, 'POST', '/admin/api/setup/rerun');
        expect(during.status).toBe(202);
        expect(during.body).toEqual({ state: 'running' });
        const after = await h.connector.db.prisma.accountConfiguration.findUniqueOrThrow({ where });
        expect(after.setupState).toBe('running');
        expect(after.setupRequestedAt).toEqual(before.setupRequestedAt);
      } finally {
        await h.connector.db.prisma.accountConfiguration.update({
          where,
          data: { setupState: before.setupState },
        });
      }
    });

    it('setup, queued by the saved key, runs in the worker, succeeds, narrows the token; a rerun then needs authorisation', async () => {
      await eventually('setup to finish', async () => {
        const state = await setupState(acmeId);
        return state === 'succeeded' || state === 'failed' ? state : undefined;
      });
      const view = await overview(acmeSession);
      expect(view.setup.state).toBe('succeeded');
      expect(view.setup.report?.scopeAfter).toBe('tickets:read tickets:write users:read apps:read');
      // Zendesk's webhook test arrived and the token was narrowed: the codes add nothing to it
      expect(view.setup.report).toMatchObject({ outcome: { code: 'finished' } });
      expect(view.setup.report?.webhookTest).toBeUndefined();
      expect(view.setup.report?.narrowing).toBeUndefined();
      expect(view.connection.scopes.sort()).toEqual([
        'apps:read',
        'tickets:read',
        'tickets:write',
        'users:read',
      ]);
      const config = await h.connector.db.prisma.accountConfiguration.findUniqueOrThrow({
        where: { accountId: acmeId },
      });
      expect(config.threatFieldId).not.toBeNull();
      expect(config.zendeskWebhookId).not.toBeNull();

      const again = await h.api(acmeSession, 'POST', '/admin/api/setup/rerun');
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        error: { code: 'authorization_needed' },
        authorizeUrl: '/install?subdomain=acme',
      });
    });

    it('has no sidebar secret to rotate any more', async () => {
      const gone = await h.api(acmeSession, 'POST', '/admin/api/sidebar-secret/rotate');
      expect(gone.status).toBe(404);
    });

    it('dead letters: lists the account’s sync failures and failed jobs, and retries each once', async () => {
      const failure = await h.connector.db.prisma.syncFailure.create({
        data: {
          accountId: acmeId,
          queue: TICKET_EVENT_QUEUE,
          ticketId: 999_999n,
          reason: 'Zendesk answered 500',
          payload: {
            accountId: acmeId,
            receivedAt: new Date().toISOString(),
            body: { ticketId: 999_999, kind: 'noop' },
          },
        },
      });
      const jobId = (await h.connector.boss.send(
        ACCOUNT_SETUP_QUEUE,
        { accountId: acmeId },
        // its own singleton key: the stately queue may still hold the install's setup job for acme
        { startAfter: 3600, retryLimit: 0, singletonKey: `${acmeId}:dead-letter-fixture` },
      ))!;
      await h.connector.boss.fail(ACCOUNT_SETUP_QUEUE, jobId, { message: 'worker crashed' });

      const listed = await h.api(acmeSession, 'GET', '/admin/api/dead-letters');
      expect(listed.status).toBe(200);
      const body = listed.body as {
        syncFailures: { id: string; reason: string }[];
        failedJobs: { id: string; queue: string; reason: string }[];
      };
      expect(body.syncFailures).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: failure.id, reason: 'Zendesk answered 500' }),
        ]),
      );
      expect(body.failedJobs).toEqual(
        expect.arrayContaining([
          {
            queue: ACCOUNT_SETUP_QUEUE,
            id: jobId,
            failedAt: expect.any(String),
            reason: 'worker crashed',
            work: 'account_setup',
            problem: { code: 'stopped_with', reason: 'worker crashed' },
          },
        ]),
      );

      const retried = await h.api(
        acmeSession,
        'POST',
        `/admin/api/dead-letters/sync-failures/${failure.id}/retry`,
      );
      expect(retried.status).toBe(202);
      const row = await h.connector.db.prisma.syncFailure.findUniqueOrThrow({
        where: { id: failure.id },
      });
      expect(row.resolvedAt).not.toBeNull();
      const requeued = await h.connector.boss.findJobs(TICKET_EVENT_QUEUE, {
        data: { accountId: acmeId, body: { ticketId: 999_999 } },
      });
      expect(requeued.length).toBe(1);
      expect(requeued[0]!.singletonKey).toBe(`${acmeId}:999999`);
      const twice = await h.api(
        acmeSession,
        'POST',
        `/admin/api/dead-letters/sync-failures/${failure.id}/retry`,
      );
      expect(twice.status).toBe(404);

      const job = await h.api(
        acmeSession,
        'POST',
        `/admin/api/dead-letters/jobs/${ACCOUNT_SETUP_QUEUE}/${jobId}/retry`,
      );
      expect(job.status).toBe(202);
      const [after] = await h.connector.boss.findJobs(ACCOUNT_SETUP_QUEUE, { id: jobId });
      expect(after?.state).not.toBe('failed');
      await h.connector.boss.cancel(ACCOUNT_SETUP_QUEUE, jobId).catch(() => undefined);
      const unknownQueue = await h.api(
        acmeSession,
        'POST',
        `/admin/api/dead-letters/jobs/pgboss.job/${jobId}/retry`,
      );
      expect(unknownQueue.status).toBe(404);
    });

    it('reconciliation: link validates the incident, links, writes the ticket; retry reports again', async () => {
      const created = (await (
        await fetch(`${h.sandboxUrl}/_sandbox/accounts/acme/tickets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            requester: { name: 'Erin', email: 'erin@customer.example' },
            subject: 'Phishing',
            body: 'See https://phish.test/login',
            tags: ['incident_unlinked'],
          }),
        })
      ).json()) as { ticket: { id: number } };
      const ticketId = created.ticket.id;
      // as the report writes them: the attempt keeps the reason, the entry its English
      await h.connector.db.prisma.reportAttempt.create({
        data: {
          accountId: acmeId,
          ticketId: BigInt(ticketId),
          mode: 'takedown',
          state: 'duplicate',
          detail: JSON.stringify({ kind: 'duplicate', status: 409 }),
        },
      });
      await h.connector.db.prisma.reconciliationEntry.create({
        data: {
          accountId: acmeId,
          ticketId: BigInt(ticketId),
          reason: 'duplicate',
          detail: 'answered 409',
        },
      });
      const listed = await h.api(acmeSession, 'GET', '/admin/api/reconciliation');
      // the reason as a code too, which the page words in the admin's language
      expect(listed.body.entries).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            ticketId,
            reason: 'duplicate',
            detail: 'answered 409',
            why: { kind: 'duplicate', status: 409 },
          }),
        ]),
      );

      const malformed = await h.api(
        acmeSession,
        'POST',
        `/admin/api/reconciliation/${ticketId}/link`,
        {
          incidentId: '../../v1/incidents',
        },
      );
      expect(malformed.status).toBe(400);
      const unknown = await h.api(
        acmeSession,
        'POST',
        `/admin/api/reconciliation/${ticketId}/link`,
        {
          incidentId: 'inc_does_not_exist',
        },
      );
      expect(unknown.status).toBe(422);
      // while Zendesk writes are paused: zendesk_limited at once, and the entry stays in the queue
      await h.connector.db.prisma.ticketWritePause.create({
        data: { accountId: acmeId, pausedUntil: new Date(Date.now() + 30_000) },
      });
      const paused = await h.api(
        acmeSession,
        'POST',
        `/admin/api/reconciliation/${ticketId}/link`,
        { incidentId },
      );
      await h.connector.db.prisma.ticketWritePause.delete({ where: { accountId: acmeId } });
      expect(paused.status).toBe(503);
      expect(paused.body.error).toMatchObject({ code: 'zendesk_limited' });
      expect(
        (paused.body.error as { retryAfterSeconds: number }).retryAfterSeconds,
      ).toBeLessThanOrEqual(30);
      expect(
        await h.connector.db.prisma.incidentLink.count({
          where: { accountId: acmeId, ticketId: BigInt(ticketId) },
        }),
      ).toBe(0);
      const linked = await h.api(
        acmeSession,
        'POST',
        `/admin/api/reconciliation/${ticketId}/link`,
        {
          incidentId,
        },
      );
      expect(linked.status).toBe(200);
      const link = await h.connector.db.prisma.incidentLink.findFirstOrThrow({
        where: { accountId: acmeId, ticketId: BigInt(ticketId) },
      });
      expect(link.incidentId).toBe(incidentId);
      const config = await h.connector.db.prisma.accountConfiguration.findUniqueOrThrow({
        where: { accountId: acmeId },
      });
      const ticket = (await (
        await fetch(`${h.sandboxUrl}/_sandbox/accounts/acme/tickets/${ticketId}`)
      ).json()) as {
        ticket: { tags: string[]; custom_fields: { id: number; value: unknown }[] };
        comments: { body: string }[];
      };
      // the note names the admin, never a user id
      expect(ticket.comments.at(-1)?.body).toBe(
        `[incident-desk] Linked to incident ${incidentId} by Ada Admin from the admin page.`,
      );
      expect(
        ticket.ticket.custom_fields.find((f) => f.id === Number(config.incidentIdFieldId))?.value,
      ).toBe(incidentId);
      expect(ticket.ticket.tags).toContain('incident_linked');
      expect(ticket.ticket.tags).not.toContain('incident_unlinked');
      // the update was counted in the account's shared budget
      expect(
        await h.connector.db.prisma.ticketWriteLog.count({
          where: { accountId: acmeId, ticketId: BigInt(ticketId) },
        }),
      ).toBe(1);
      const again = await h.api(acmeSession, 'POST', `/admin/api/reconciliation/${ticketId}/link`, {
        incidentId,
      });
      expect(again.status).toBe(404);

      // Retry: a second unlinked ticket whose report ended as a duplicate.
      const second = (await (
        await fetch(`${h.sandboxUrl}/_sandbox/accounts/acme/tickets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            requester: { name: 'Erin', email: 'erin@customer.example' },
            subject: 'Phishing again',
            body: 'See https://other-phish.test/',
            tags: ['incident_unlinked'],
          }),
        })
      ).json()) as { ticket: { id: number } };
      await h.connector.db.prisma.reportAttempt.create({
        data: {
          accountId: acmeId,
          ticketId: BigInt(second.ticket.id),
          mode: 'takedown',
          state: 'duplicate',
          finishedAt: new Date(),
        },
      });
      await h.connector.db.prisma.reconciliationEntry.create({
        data: { accountId: acmeId, ticketId: BigInt(second.ticket.id), reason: 'duplicate' },
      });
      const retried = await h.api(
        acmeSession,
        'POST',
        `/admin/api/reconciliation/${second.ticket.id}/retry`,
      );
      expect(retried.status).toBe(202);
      const entry = await h.connector.db.prisma.reconciliationEntry.findFirstOrThrow({
        where: { accountId: acmeId, ticketId: BigInt(second.ticket.id) },
      });
      expect(entry.resolvedAt).not.toBeNull();
      const retriedTicket = (await (
        await fetch(`${h.sandboxUrl}/_sandbox/accounts/acme/tickets/${second.ticket.id}`)
      ).json()) as { comments: { body: string }[] };
      // the report it queued may already have noted its own outcome after it
      expect(retriedTicket.comments.map((comment) => comment.body)).toContain(
        '[incident-desk] Linking will be retried: the threat is reported again (requested by Ada Admin).',
      );
    });
  });
});

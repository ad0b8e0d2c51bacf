// The admin page's first run, over real HTTP against the composed connector and both
// sandboxes: the checklist of a new account, the incident key checked with the service before it
// is saved, test deliveries, "last from Zendesk" written by a signed delivery, and failed syncs
// (a failed comment forward included) listed with links, codes and a retry.
import {
  DEMO_API_KEY,
  DEMO_PARENT_CLIENT_ID,
  OTHER_ORG_CLIENT_ID,
} from '@incident-desk/incident-sandbox';
import { signZendeskWebhook } from '@incident-desk/zendesk-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INCIDENT_EVENT_QUEUE } from '../src/jobs/incident-event-job';
import { TICKET_EVENT_QUEUE } from '../src/jobs/ticket-event-job';
import { secretBinding } from '../src/secrets/secret-bindings';
import { startAdminHarness, type AdminHarness, type SignedIn } from './admin-harness';
import { eventually } from './support/eventually';
import { backends } from './support/test-database';

interface Step {
  id: string;
  title: string;
  state: string;
  summary: string;
  next: string | null;
  action: string | null;
}

describe.each(backends)('admin first run (%s)', (backend) => {
  let h: AdminHarness;
  let acmeId: string;
  let acme: SignedIn;
  let globex: SignedIn;

  const checklist = async (session: SignedIn) => {
    const answer = await h.api(session, 'GET', '/admin/api/first-run');
    expect(answer.status).toBe(200);
    const body = answer.body as { complete: boolean; steps: Step[]; authorizeUrl: string };
    return { ...body, step: (id: string) => body.steps.find((s) => s.id === id)! };
  };
  const configOf = (accountId: string) =>
    h.connector.db.prisma.accountConfiguration.findUniqueOrThrow({ where: { accountId } });

  beforeAll(async () => {
    h = await startAdminHarness(backend, {
      env: { INCIDENT_CONSOLE_URL: 'https://console.example/incidents/{incidentId}' },
    });
    const acmeUsers = await h.createAccount('acme');
    const globexUsers = await h.createAccount('globex');
    expect((await h.install('acme', acmeUsers.adminId)).status).toBe(303);
    expect((await h.install('globex', globexUsers.adminId)).status).toBe(303);
    acmeId = await h.accountId('acme');
    acme = await h.signIn('acme', acmeUsers.adminId);
    globex = await h.signIn('globex', globexUsers.adminId);
    await eventually('the install’s setup job', async () =>
      (await configOf(acmeId)).setupState === 'needs_configuration' ? true : undefined,
    );
  });
  afterAll(async () => {
    await h?.close();
  });

  it('the new routes answer 401 without a session', async () => {
    for (const [method, route] of [
      ['GET', '/admin/api/first-run'],
      ['GET', '/admin/api/zendesk-groups'],
      ['POST', '/admin/api/webhooks/test'],
      ['POST', '/admin/api/dead-letters/comment-forwards/1/retry'],
    ] as const) {
      expect([route, (await h.api(null, method, route)).status]).toEqual([route, 401]);
    }
  });

  it('a new account’s checklist: connected, then the key, setup, webhooks and sidebar to do, each with what to do next', async () => {
    const list = await checklist(acme);
    expect(list.complete).toBe(false);
    expect(list.steps.map((s) => s.id)).toEqual([
      'zendesk',
      'incident_key',
      'setup',
      'webhooks',
      'sidebar',
    ]);
    expect(list.step('zendesk')).toMatchObject({ state: 'done', next: null });
    expect(list.step('zendesk').summary).toContain('acme');
    // the address the connector actually uses: here the local Zendesk sandbox
    expect(list.step('zendesk').summary).toContain(h.sandboxUrl);
    expect(list.step('zendesk').summary).not.toContain('zendesk.com');
    expect(list.step('incident_key')).toMatchObject({ state: 'todo', action: 'save_incident_key' });
    expect(list.step('incident_key').next).toMatch(/API key/);
    expect(list.step('setup')).toMatchObject({
      state: 'todo',
      summary: 'Setup waits for the incident API key.',
    });
    expect(list.step('setup').next).toMatch(/incident API key first/);
    expect(list.step('webhooks').next).toMatch(/Run setup first/);
    expect(list.step('sidebar')).toMatchObject({ state: 'todo' });
    expect(list.step('sidebar').next).toMatch(/open any ticket/);
    expect(list.authorizeUrl).toBe('/install?subdomain=acme');
  });

  it('a wrong API key is refused with a clear 422 and nothing is saved', async () => {
    const before = await configOf(acmeId);
    const wrong = await h.api(acme, 'PUT', '/admin/api/incident-connection', {
      apiKey: 'not-a-real-key',
      clientId: DEMO_PARENT_CLIENT_ID,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ error: { code: 'api_key_refused' } });
    expect((wrong.body.error as { message: string }).message).toMatch(
      /refused this API key.*nothing was saved/,
    );
    const after = await configOf(acmeId);
    expect(after.sealedIncidentApiKey).toBeNull();
    expect(after.incidentClientId).toBe(before.incidentClientId);
    expect((await checklist(acme)).step('incident_key').state).toBe('todo');
  });

  it('a key that does not cover the client named is refused, naming what it covers; nothing saved', async () => {
    const other = await h.api(acme, 'PUT', '/admin/api/incident-connection', {
      apiKey: DEMO_API_KEY,
      clientId: OTHER_ORG_CLIENT_ID,
    });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ error: { code: 'client_not_covered' } });
    expect((other.body.error as { message: string }).message).toContain(DEMO_PARENT_CLIENT_ID);
    // the facts the admin page words the refusal with, in the admin's language
    expect(other.body.facts).toEqual({
      missing: [OTHER_ORG_CLIENT_ID],
      covered: expect.arrayContaining([expect.stringContaining(DEMO_PARENT_CLIENT_ID)]),
    });
    expect((await configOf(acmeId)).sealedIncidentApiKey).toBeNull();
  });

  it('a good key is saved with the client name, which the checklist shows', async () => {
    const saved = await h.api(acme, 'PUT', '/admin/api/incident-connection', {
      apiKey: DEMO_API_KEY,
      clientId: DEMO_PARENT_CLIENT_ID,
    });
    expect(saved.status).toBe(200);
    const clientName = saved.body.clientName as string;
    expect(clientName).toMatch(/\S/);
    expect(JSON.stringify(saved.body)).not.toContain(DEMO_API_KEY);
    const step = (await checklist(acme)).step('incident_key');
    expect(step).toMatchObject({ state: 'done', next: null });
    expect(step.summary).toContain(clientName);
    expect(step.summary).toContain(DEMO_PARENT_CLIENT_ID);
    // setup was waiting for the key: saving it queued setup, with no button to press
    expect(saved.body.setup).toEqual({ state: 'queued' });
    expect(['queued', 'running', 'succeeded']).toContain(
      (await checklist(acme)).step('setup').state === 'done'
        ? 'succeeded'
        : (await configOf(acmeId)).setupState,
    );
    // the other account sees none of it
    const ofGlobex = await checklist(globex);
    expect(ofGlobex.step('incident_key').state).toBe('todo');
    expect(JSON.stringify(ofGlobex)).not.toContain(clientName);
    expect(JSON.stringify(ofGlobex)).not.toContain('acme');
  });

  it('test deliveries before setup are refused; globex’s session cannot send acme’s', async () => {
    const early = await h.api(globex, 'POST', '/admin/api/webhooks/test');
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ error: { code: 'no_subscription' } });
  });

  it('after setup: a test delivery confirms the incident side, a signed Zendesk delivery writes lastZendeskWebhookAt', async () => {
    // the key's save queued setup: nothing else was pressed
    await eventually('setup to succeed', async () => {
      const state = (await configOf(acmeId)).setupState;
      return state === 'succeeded' || state === 'failed' ? state : undefined;
    });
    expect((await checklist(acme)).step('setup').state).toBe('done');
    // setup asked the service for a test delivery: it lands on its own time, so it is waited for
    // before the times are cleared, or it could mark the step done after the clearing
    await eventually(
      'setup’s test delivery recorded',
      async () =>
        (await h.connector.db.prisma.incidentSubscription.findFirst({
          where: { accountId: acmeId, lastTestAt: { not: null } },
        })) ?? undefined,
    );
    await h.connector.db.prisma.incidentSubscription.updateMany({
      where: { accountId: acmeId },
      data: { lastTestAt: null, lastEventAt: null },
    });
    // setup asked Zendesk to test its webhook before narrowing the token: the Zendesk side is
    // confirmed by Zendesk's own signed test delivery, no ticket needed
    const afterSetup = await h.api(acme, 'GET', '/admin/api/overview');
    expect(
      (afterSetup.body.health as { lastZendeskWebhookAt: string | null }).lastZendeskWebhookAt,
    ).not.toBeNull();
    expect((await checklist(acme)).step('webhooks').summary).toMatch(
      /Zendesk delivered a signed webhook/,
    );
    // the test delivery queued no ticket job
    expect(
      await h.connector.db.prisma.webhookReceipt.count({
        where: { accountId: acmeId, source: 'zendesk' },
      }),
    ).toBe(0);
    await h.connector.db.prisma.accountHealth.deleteMany({ where: { accountId: acmeId } });
    const before = (await checklist(acme)).step('webhooks');
    expect(before).toMatchObject({ state: 'todo', action: 'test_webhooks' });

    const sent = await h.api(acme, 'POST', '/admin/api/webhooks/test');
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ failed: [] });
    // the narrowed token may not ask Zendesk for a test, and the answer says so
    expect(sent.body.zendesk).toMatchObject({
      outcome: 'needs_permission',
      message: expect.stringMatching(/setup tests it/),
    });
    expect((sent.body.requested as string[]).length).toBeGreaterThan(0);
    const waiting = await eventually('the webhook.test to arrive', async () => {
      const step = (await checklist(acme)).step('webhooks');
      return /incident service delivered/.test(step.summary) ? step : undefined;
    });
    // the incident side is confirmed; Zendesk has not delivered anything yet
    expect(waiting.state).toBe('todo');
    expect(waiting.summary).toMatch(/no webhook from Zendesk yet/);
    expect(waiting.next).toMatch(/run setup again.*incident_submit/);
    expect(waiting.action).toBeNull();

    const overviewBefore = await h.api(acme, 'GET', '/admin/api/overview');
    expect(
      (overviewBefore.body.health as { lastZendeskWebhookAt: string | null }).lastZendeskWebhookAt,
    ).toBeNull();
    const config = await configOf(acmeId);
    const secret = await h.connector.secretBox.open(
      config.sealedZendeskWebhookSecret!,
      secretBinding.zendeskWebhookSecret(acmeId),
    );
    const raw = JSON.stringify({ kind: 'comment', ticketId: 5, updatedAt: 'first-run-test' });
    // Zendesk names its account on every delivery (setup's test delivery bound the installation)
    const sandboxAccounts = (await (await fetch(`${h.sandboxUrl}/_sandbox/accounts`)).json()) as {
      accounts: { id: number; subdomain: string }[];
    };
    const zendeskAccountId = sandboxAccounts.accounts.find((a) => a.subdomain === 'acme')!.id;
    const delivery = await fetch(`${h.connectorUrl}/ticketing/webhook?account=${acmeId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-zendesk-account-id': String(zendeskAccountId),
        ...signZendeskWebhook({ secret, rawBody: raw }).headers,
      },
      body: raw,
    });
    expect(delivery.status).toBe(200);
    const overview = await h.api(acme, 'GET', '/admin/api/overview');
    expect(
      (overview.body.health as { lastZendeskWebhookAt: string | null }).lastZendeskWebhookAt,
    ).not.toBeNull();
    expect((await checklist(acme)).step('webhooks').state).toBe('done');
  });

  it('an unsigned delivery does not count as one from Zendesk', async () => {
    await h.connector.db.prisma.accountHealth.updateMany({
      where: { accountId: acmeId },
      data: { lastZendeskWebhookAt: null },
    });
    const forged = await fetch(`${h.connectorUrl}/ticketing/webhook?account=${acmeId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'comment', ticketId: 5, updatedAt: 'forged' }),
    });
    expect(forged.status).toBe(401);
    const health = await h.connector.db.prisma.accountHealth.findUnique({
      where: { accountId: acmeId },
    });
    expect(health?.lastZendeskWebhookAt ?? null).toBeNull();
  });

  it('a French admin’s checklist speaks French: titles, what is true now and what to do next', async () => {
    const created = await fetch(`${h.sandboxUrl}/_sandbox/accounts/acme/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Amélie Admin',
        email: 'amelie@acme.example',
        role: 'admin',
        locale: 'fr-CA',
      }),
    });
    const amelie = ((await created.json()) as { user: { id: number } }).user.id;
    const french = await checklist(await h.signIn('acme', amelie));
    const english = await checklist(acme);
    expect(french.steps.map((s) => s.id)).toEqual(english.steps.map((s) => s.id));
    expect(french.step('sidebar')).toMatchObject({
      title: 'Barre latérale installée',
      summary: 'Aucun agent n’a encore ouvert la barre latérale d’incident-desk.',
      next: expect.stringMatching(/^Installez l’application incident-desk dans Zendesk/),
    });
    expect(french.step('zendesk').summary).toBe(`Connecté à ${h.sandboxUrl}/_z/acme.`);
    expect(english.step('sidebar').title).toBe('Sidebar installed');
  });

  it('a failed sync names its incident as the ticket’s Incident ID field does: the report’s reference, else the incident id', async () => {
    const serviceId = '65f1c0ffee00000000000a01';
    const unlinkedId = '65f1c0ffee00000000000a02';
    const globexId = await h.accountId('globex');
    await h.connector.db.prisma.incidentLink.createMany({
      data: [
        { accountId: acmeId, incidentId: serviceId, reportRef: 'inc_acme_report', ticketId: 61n },
        // another account's link for the same service id never names acme's incident
        {
          accountId: globexId,
          incidentId: serviceId,
          reportRef: 'inc_globex_report',
          ticketId: 61n,
        },
      ],
    });
    await h.connector.db.prisma.syncFailure.createMany({
      data: [
        {
          accountId: acmeId,
          queue: INCIDENT_EVENT_QUEUE,
          ticketId: 61n,
          incidentId: serviceId,
          reason: 'InternalServerError: 500',
          payload: { accountId: acmeId, body: {} },
        },
        {
          accountId: acmeId,
          queue: INCIDENT_EVENT_QUEUE,
          ticketId: null,
          incidentId: unlinkedId,
          reason: 'InternalServerError: 500',
          payload: { accountId: acmeId, body: {} },
        },
      ],
    });
    await h.connector.db.prisma.forwardedComment.create({
      data: {
        accountId: acmeId,
        commentId: 777_061n,
        ticketId: 61n,
        incidentId: serviceId,
        status: 'failed',
        detail: 'InternalServerError: incidents.comment: 500 ServiceUnavailable',
      },
    });
    const listed = await h.api(acme, 'GET', '/admin/api/dead-letters');
    const failures = listed.body.syncFailures as Record<string, unknown>[];
    expect(failures.find((row) => row.incidentId === serviceId)).toMatchObject({
      incidentRef: 'inc_acme_report',
      // the service's console still opens under the id it knows
      incidentUrl: `https://console.example/incidents/${serviceId}`,
    });
    expect(failures.find((row) => row.incidentId === unlinkedId)?.incidentRef).toBe(unlinkedId);
    const forwards = listed.body.failedForwards as Record<string, unknown>[];
    expect(forwards.find((row) => row.commentId === '777061')?.incidentRef).toBe('inc_acme_report');
    await h.connector.db.prisma.syncFailure.deleteMany({
      where: { accountId: acmeId, incidentId: { in: [serviceId, unlinkedId] } },
    });
    await h.connector.db.prisma.forwardedComment.deleteMany({
      where: { accountId: acmeId, commentId: 777_061n },
    });
    await h.connector.db.prisma.incidentLink.deleteMany({ where: { incidentId: serviceId } });
  });

  it('dead letters: a failed comment forward and a failed incident sync are listed with ticket links and codes; retry requeues the forward', async () => {
    await h.connector.db.prisma.forwardedComment.create({
      data: {
        accountId: acmeId,
        commentId: 777_001n,
        ticketId: 41n,
        incidentId: 'inc_forward',
        status: 'failed',
        detail: 'InternalServerError: incidents.comment: 500 ServiceUnavailable',
      },
    });
    await h.connector.db.prisma.syncFailure.create({
      data: {
        accountId: acmeId,
        queue: TICKET_EVENT_QUEUE,
        ticketId: 42n,
        incidentId: 'inc_report',
        reason: 'InternalServerError: incidents.report: 503 Service Unavailable',
        payload: { accountId: acmeId, body: { ticketId: 42, kind: 'report', mode: 'takedown' } },
      },
    });
    const listed = await h.api(acme, 'GET', '/admin/api/dead-letters');
    expect(listed.status).toBe(200);
    const forwards = listed.body.failedForwards as Record<string, unknown>[];
    const forward = forwards.find((row) => row.commentId === '777001')!;
    expect(forward).toMatchObject({
      ticketId: 41,
      incidentId: 'inc_forward',
      canRetry: true,
      work: 'comment_forward',
      problem: { code: 'http_status', party: 'incident_service', status: 500 },
    });
    expect(forward.ticketUrl).toBe(`${h.sandboxUrl}/_z/acme/agent/tickets/41`);
    expect(forward.incidentUrl).toBe('https://console.example/incidents/inc_forward');
    const failure = (listed.body.syncFailures as Record<string, unknown>[]).find(
      (row) => row.ticketId === 42,
    )!;
    expect(failure).toMatchObject({
      work: 'ticket_report',
      problem: { code: 'http_status', party: 'incident_service', status: 503 },
      canRetry: true,
    });

    // globex sees none of acme's and cannot retry it
    const ofGlobex = await h.api(globex, 'GET', '/admin/api/dead-letters');
    expect(JSON.stringify(ofGlobex.body)).not.toContain('777001');
    const crossed = await h.api(
      globex,
      'POST',
      '/admin/api/dead-letters/comment-forwards/777001/retry',
    );
    expect(crossed.status).toBe(404);
    expect(
      await h.connector.db.prisma.forwardedComment.count({
        where: { accountId: acmeId, commentId: 777_001n },
      }),
    ).toBe(1);

    const retried = await h.api(
      acme,
      'POST',
      '/admin/api/dead-letters/comment-forwards/777001/retry',
    );
    expect(retried.status).toBe(202);
    expect(
      await h.connector.db.prisma.forwardedComment.count({
        where: { accountId: acmeId, commentId: 777_001n },
      }),
    ).toBe(0);
    const again = await h.api(
      acme,
      'POST',
      '/admin/api/dead-letters/comment-forwards/777001/retry',
    );
    expect(again.status).toBe(404);
    const bad = await h.api(acme, 'POST', '/admin/api/dead-letters/comment-forwards/x1/retry');
    expect(bad.status).toBe(404);
  });

  it('the groups for new tickets come from the account’s Zendesk, by name, each account its own', async () => {
    const account = h.zendeskSandbox.state.requireAccount('acme');
    account.groups.set(990_001, { id: 990_001, name: 'Abuse desk' });
    const acmeGroups = await h.api(acme, 'GET', '/admin/api/zendesk-groups');
    expect(acmeGroups.status).toBe(200);
    const names = (acmeGroups.body.groups as { id: number; name: string }[]).map((g) => g.name);
    expect(names).toEqual(['Abuse desk', 'Support']);
    const globexGroups = await h.api(globex, 'GET', '/admin/api/zendesk-groups');
    expect(globexGroups.status).toBe(200);
    expect(JSON.stringify(globexGroups.body)).not.toContain('Abuse desk');
  });

  it('reconciliation entries carry the ticket’s link', async () => {
    await h.connector.db.prisma.reconciliationEntry.create({
      data: { accountId: acmeId, ticketId: 43n, reason: 'duplicate' },
    });
    const queue = await h.api(acme, 'GET', '/admin/api/reconciliation');
    expect(queue.body.entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          ticketId: 43,
          ticketUrl: `${h.sandboxUrl}/_z/acme/agent/tickets/43`,
        }),
      ]),
    );
  });
});

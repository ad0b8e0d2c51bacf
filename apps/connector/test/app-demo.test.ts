// The composed connector and the zero-configuration demo, end to end over real HTTP: both sandboxes
// in-process on port 0, createConnector on port 0, the demo bootstrap, then a ticket tagged in the
// Zendesk sandbox is reported, and incident status changes come back to the ticket.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoSeed, ZendeskSandbox } from '@incident-desk/zendesk-sandbox';
import { createConnector, type Connector } from '../src/app';
import type { ConnectorConfig } from '../src/config/config';
import { readOwnDomains, saveOwnDomains } from '../src/accounts/account-configuration';
import { DEMO_OWN_DOMAINS, type DemoResult } from '../src/demo/run-demo';
import {
  demoConfig,
  json,
  runDemoOn,
  sidebarStandIn,
  startDemoSandboxes,
} from './support/demo-stack';
import { eventually } from './support/eventually';
import { backends, testConnectorDatabase } from './support/test-database';

const API_KEY = 'sandbox-demo-key';
interface SandboxTicket {
  ticket: { tags: string[]; custom_fields: { id: number; value: unknown }[] };
  comments: { public: boolean; body: string }[];
}

describe.each(backends)('connector with the demo (%s)', (backend) => {
  let dir: string;
  let zendeskSandbox: ZendeskSandbox;
  let seed: DemoSeed;
  let incidentUrl: string;
  let zendeskUrl: string;
  let closeSandboxes: () => Promise<void>;
  let dropDatabase: () => Promise<void>;
  let config: ConnectorConfig;
  let connector: Connector;
  let connectorUrl: string;
  let first: DemoResult;
  let closed = false;
  let baselineSockets: number;
  const sockets = () =>
    process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap' || r === 'TCPSocketWrap')
      .length;

  const demo = () => runDemoOn(connector, config, connectorUrl);
  const ticket = (id: number) =>
    json(
      `${zendeskUrl}/_sandbox/accounts/demo/tickets/${id}`,
    ) as Promise<unknown> as Promise<SandboxTicket>;
  const fieldValue = (t: SandboxTicket, id: number | null) =>
    t.ticket.custom_fields.find((field) => field.id === id)?.value;

  async function setupCounts() {
    const token = zendeskSandbox.issueToken('demo', seed.adminId, ['read', 'write']);
    const zendesk = (p: string) =>
      json(`${zendeskUrl}/_z/demo/api/v2/${p}`, { headers: { authorization: `Bearer ${token}` } });
    const incidentWebhooks = await json(`${incidentUrl}/v1/webhooks`, {
      headers: { 'x-api-key': API_KEY },
    });
    return {
      fields: ((await zendesk('ticket_fields.json')).ticket_fields as unknown[]).length,
      webhooks: ((await zendesk('webhooks')).webhooks as unknown[]).length,
      triggers: ((await zendesk('triggers.json')).triggers as unknown[]).length,
      incidentWebhooks: JSON.stringify(incidentWebhooks).match(/"id":/g)?.length ?? 0,
      accounts: await connector.db.prisma.account.count(),
      subscriptions: await connector.db.prisma.incidentSubscription.count(),
    };
  }

  beforeAll(async () => {
    baselineSockets = sockets();
    dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-app-demo-'));
    const sandboxes = await startDemoSandboxes();
    zendeskSandbox = sandboxes.zendesk;
    seed = sandboxes.seed!;
    incidentUrl = sandboxes.incidentUrl;
    zendeskUrl = sandboxes.zendeskUrl;
    closeSandboxes = sandboxes.close;
    const database = testConnectorDatabase(backend, dir, 'app_demo');
    dropDatabase = database.drop;
    config = demoConfig(sandboxes, dir, database.env);
    connector = await createConnector(config, {
      log: () => undefined,
      sidebarDistDir: sidebarStandIn(dir),
    });
    connectorUrl = (await connector.listen(0)).url;
    first = await demo();
  });

  afterAll(async () => {
    if (!closed) await connector?.close();
    await closeSandboxes?.();
    await dropDatabase?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets the demo account up completely against the sandboxes', async () => {
    expect(first.setup.steps.filter((s) => s.outcome === 'failed')).toEqual([]);
    expect(first.setup.ok).toBe(true);
    // The seed's fields (described with setup's mark) are found, not created again.
    expect(first.setup.fields).toEqual({
      threat: seed.threatFieldId,
      incidentId: seed.incidentFieldId,
      status: seed.statusFieldId,
    });
    expect(first.setup.incidentSubscriptions.map((s) => s.clientId).sort()).toEqual([
      'cl_demo_bank',
      'cl_demo_parent',
      'cl_demo_retail',
    ]);
    const row = await connector.db.prisma.zendeskCredential.findUnique({
      where: { accountId: first.accountId },
    });
    expect(row?.scope).toBe('tickets:read tickets:write users:read apps:read');
    // Zendesk tested the webhook while the token could: the checklist's Zendesk side is confirmed
    const accountHealth = await connector.db.prisma.accountHealth.findUnique({
      where: { accountId: first.accountId },
    });
    expect(accountHealth?.lastZendeskWebhookAt).not.toBeNull();
    const health = await fetch(`${connectorUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      ok: true,
      database: { ok: true },
      accounts: { reauthorizationRequired: 0 },
    });

    // a revoked refresh token: the service stays ready, readiness counts the account (never names it)
    await connector.db.prisma.zendeskCredential.update({
      where: { accountId: first.accountId },
      data: { state: 'reauthorization_required' },
    });
    try {
      const revoked = await fetch(`${connectorUrl}/healthz`);
      expect(revoked.status).toBe(200);
      const report = await revoked.json();
      expect(report).toMatchObject({ ok: true, accounts: { reauthorizationRequired: 1 } });
      expect(JSON.stringify(report)).not.toContain(first.accountId);
    } finally {
      await connector.db.prisma.zendeskCredential.update({
        where: { accountId: first.accountId },
        data: { state: 'active' },
      });
    }
  });

  it('sets the demo clients’ protected domains as the account’s own, once: an admin’s change is kept', async () => {
    expect(await readOwnDomains(connector.db, first.accountId)).toEqual(DEMO_OWN_DOMAINS);
    await saveOwnDomains(connector.db, first.accountId, ['demo-parent.example']);
    try {
      await demo();
      expect(await readOwnDomains(connector.db, first.accountId)).toEqual(['demo-parent.example']);
    } finally {
      await saveOwnDomains(connector.db, first.accountId, DEMO_OWN_DOMAINS);
    }
  });

  it('running the demo bootstrap again creates nothing twice', async () => {
    const before = await setupCounts();
    const again = await demo();
    expect(again.accountId).toBe(first.accountId);
    expect(again.setup.ok).toBe(true);
    expect(again.setup.steps.filter((s) => s.outcome === 'created')).toEqual([]);
    expect(await setupCounts()).toEqual(before);
    expect(before).toMatchObject({ accounts: 1, subscriptions: 3, webhooks: 1 });
  });

  it('reports a tagged ticket, shows it in the sidebar, and brings status changes back as notes', async () => {
    const threat = `https://login-${backend}.demo-phish.test/signin`;
    const agentToken = zendeskSandbox.issueToken('demo', seed.agentIds[0], ['read', 'write']);
    const update = await fetch(`${zendeskUrl}/_z/demo/api/v2/tickets/${seed.ticketIds[2]}.json`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${agentToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        ticket: {
          custom_fields: [{ id: seed.threatFieldId, value: threat }],
          additional_tags: ['incident_submit'],
        },
      }),
    });
    expect(update.status).toBe(200);

    const linked = await eventually('the Incident ID field and incident_linked tag', async () => {
      const current = await ticket(seed.ticketIds[2]!);
      const incidentId = fieldValue(current, seed.incidentFieldId);
      return current.ticket.tags.includes('incident_linked') &&
        typeof incidentId === 'string' &&
        incidentId !== ''
        ? incidentId
        : undefined;
    });
    const incident = await json(`${incidentUrl}/v1/incident/${encodeURIComponent(linked)}`, {
      headers: { 'x-api-key': API_KEY },
    });
    expect(JSON.stringify(incident)).toContain('demo-phish.test');
    const record = await json(`${incidentUrl}/_sandbox/incidents/${encodeURIComponent(linked)}`);

    // The sidebar, as the sandbox workspace opens it: the page POSTed with a ZAF JWT the sandbox
    // signed with the app's key, then the view with the session the page holds.
    const installation = zendeskSandbox.state.apps.install('demo', config.sidebar.appId);
    const zafToken = await new SignJWT({
      iss: 'demo.zendesk.com',
      aud: `https://demo.zendesk.com/api/v2/apps/installations/${installation}.json`,
      sub: `https://demo.zendesk.com/api/v2/users/${seed.agentIds[0]}.json`,
    })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuedAt()
      .setExpirationTime('2m')
      .sign(zendeskSandbox.state.apps.keyOf(config.sidebar.appId).privateKey);
    const page = await fetch(`${connectorUrl}/sidebar/app/assets/iframe.html`, {
      method: 'POST',
      body: new URLSearchParams({ token: zafToken }),
    });
    expect(page.status).toBe(200);
    const session = /"token":"([A-Za-z0-9_-]{43})"/.exec(await page.text())?.[1];
    const sidebar = (token: string) =>
      fetch(`${connectorUrl}/sidebar/tickets/${seed.ticketIds[2]}`, {
        headers: { authorization: `Bearer ${token}` },
      });
    const view = await sidebar(session!);
    expect(view.status).toBe(200);
    expect(await view.text()).toContain(linked);
    expect((await sidebar('not-a-session-the-connector-gave-out')).status).toBe(401);

    const notesBefore = (await ticket(seed.ticketIds[2]!)).comments.filter((c) => !c.public).length;
    await json(`${incidentUrl}/_sandbox/incidents/${String(record.id)}/advance`, {
      method: 'POST',
      body: JSON.stringify({
        status: 'case_building',
        message: 'Analyst started building the case.',
      }),
    });
    const after = await eventually('an internal note and the Status field', async () => {
      const current = await ticket(seed.ticketIds[2]!);
      const status = fieldValue(current, seed.statusFieldId);
      const notes = current.comments.filter((c) => !c.public);
      return typeof status === 'string' &&
        /case.?building/i.test(status) &&
        notes.length > notesBefore
        ? current
        : undefined;
    });
    expect(after.comments.filter((c) => !c.public).at(-1)?.body).toMatch(/case.?building|analyst/i);
    // Exactly one incident was reported for the ticket.
    expect(await connector.db.prisma.incidentLink.count()).toBe(1);
  });

  it('closes gracefully: no more HTTP, the database released, no sockets left', async () => {
    // A report in flight whose ticket update is slow: close waits for it instead of dropping it.
    await json(`${zendeskUrl}/_sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({
        path: '/api/v2/tickets/*',
        method: 'PUT',
        kind: 'latency',
        latency_ms: 1_000,
        times: 5,
      }),
    });
    const agentToken = zendeskSandbox.issueToken('demo', seed.agentIds[0], ['read', 'write']);
    const tag = await fetch(`${zendeskUrl}/_z/demo/api/v2/tickets/${seed.ticketIds[0]}.json`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${agentToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ticket: { additional_tags: ['incident_submit'] } }),
    });
    expect(tag.status).toBe(200);
    await eventually('the report job running', async () => {
      const jobs = await connector.boss.findJobs('ticket-event');
      return jobs.some((job) => job.state === 'active') ? true : undefined;
    });
    await connector.close();
    closed = true;
    await expect(fetch(`${connectorUrl}/healthz`)).rejects.toThrow();
    await expect(connector.db.prisma.account.count()).rejects.toThrow();
    await connector.close(); // idempotent
    const finished = await ticket(seed.ticketIds[0]!);
    expect(finished.ticket.tags).toContain('incident_linked');
    await closeSandboxes();
    closeSandboxes = async () => undefined;
    // fetch's keep-alive sockets to the stopped servers are released asynchronously.
    await eventually('every socket closed', async () =>
      sockets() <= baselineSockets ? true : undefined,
    );
  });
});

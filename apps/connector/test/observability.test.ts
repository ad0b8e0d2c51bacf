// What an operator sees of a running connector. JSON log lines with a level
// and a request id that reaches the job the request enqueued, one line with its reason for every
// refused request, no secret or email in any line; /livez, /readyz (503 once the database is
// gone), /healthz's details only for an operator, and Prometheus /metrics behind METRICS_TOKEN.
// The whole connector runs in-process against both sandboxes, with the demo account.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIncidentSandbox, type IncidentSandbox } from '@incident-desk/incident-sandbox';
import {
  createZendeskSandbox,
  DEMO_GLOBAL_CLIENT,
  seedDemo,
  type DemoSeed,
  type ZendeskSandbox,
} from '@incident-desk/zendesk-sandbox';
import { createConnector, type Connector } from '../src/app';
import { loadConfig, SANDBOX_ZENDESK_CLIENT, type ConnectorConfig } from '../src/config/config';
import { runDemo, type DemoResult } from '../src/demo/run-demo';
import { connectorDatabase } from './support/connector-process';
import { eventually } from './support/eventually';
import { backends } from './support/test-database';

const API_KEY = 'sandbox-demo-key';
const METRICS_TOKEN = randomBytes(24).toString('hex');
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const silent = () => undefined;

interface LogLine {
  level: string;
  msg: string;
  reqId?: string;
  jobId?: string;
  queue?: string;
  accountId?: string;
  status?: number;
  reason?: string;
  outcome?: string;
  req?: { method: string; path: string };
  [key: string]: unknown;
}

/** The value of one series (`name{labels}`) in a Prometheus text scrape; undefined when absent. */
function sample(
  scrape: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of scrape.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const wanted = Object.entries(labels).every(([key, value]) =>
      line.includes(`${key}="${value}"`),
    );
    if (wanted) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe.each(backends)('operations: logs, health and metrics (%s)', (backend) => {
  let dir: string;
  let incidentSandbox: IncidentSandbox;
  let zendeskSandbox: ZendeskSandbox;
  let seed: DemoSeed;
  let incidentUrl: string;
  let zendeskUrl: string;
  let closeSandboxes: () => Promise<void>;
  let dropDatabase: () => Promise<void>;
  let config: ConnectorConfig;
  let connector: Connector;
  let connectorUrl: string;
  let demo: DemoResult;
  const raw: string[] = [];
  const lines = (): LogLine[] => raw.map((line) => JSON.parse(line) as LogLine);
  const metrics = (token: string | null = METRICS_TOKEN) =>
    fetch(
      `${connectorUrl}/metrics`,
      token ? { headers: { authorization: `Bearer ${token}` } } : {},
    );

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-observability-'));
    incidentSandbox = createIncidentSandbox({ webhookDelayMs: 5, webhookRetryDelaysMs: [100] });
    const incident = await incidentSandbox.listen(0);
    zendeskSandbox = createZendeskSandbox({
      searchLagMs: 0,
      globalClients: [
        { ...DEMO_GLOBAL_CLIENT, redirect_uris: ['http://127.0.0.1/oauth/callback'] },
      ],
      webhooks: { retryDelaysMs: [20, 50] },
    });
    seed = seedDemo(zendeskSandbox);
    const zendesk = await zendeskSandbox.listen(0);
    incidentUrl = incident.url.replace(/\/+$/, '');
    zendeskUrl = zendesk.url.replace(/\/+$/, '');
    closeSandboxes = async () => {
      await zendesk.close();
      await incidentSandbox.close();
    };
    const database = connectorDatabase(backend, dir, 'observability');
    dropDatabase = database.drop;
    const loaded = loadConfig(
      {
        NODE_ENV: 'test',
        DEMO: 'true',
        CONNECTOR_PORT: '0',
        ZENDESK_BASE_URL_TEMPLATE: `${zendeskUrl}/_z/{subdomain}`,
        INCIDENT_API_URL: incidentUrl,
        WORKER_POLL_INTERVAL_SECONDS: '0.5',
        METRICS_TOKEN,
        LOG_LEVEL: 'info',
        ...database.env,
      },
      { secretKeysFile: path.join(dir, 'secret-keys.json'), log: silent },
    );
    config = { ...loaded, demo: { ...loaded.demo!, zendeskSandboxUrl: zendeskUrl } };
    const sidebarDist = path.join(dir, 'sidebar-dist');
    mkdirSync(path.join(sidebarDist, 'assets'), { recursive: true });
    writeFileSync(path.join(sidebarDist, 'assets', 'iframe.html'), '<!doctype html>');
    connector = await createConnector(config, {
      log: (line) => raw.push(line),
      sidebarDistDir: sidebarDist,
    });
    connectorUrl = (await connector.listen(0)).url;
    demo = await runDemo({
      db: connector.db,
      secretBox: connector.secretBox,
      accounts: connector.accounts,
      oauth: config.oauth,
      demo: config.demo!,
      connectorUrl,
      log: silent,
    });
  });

  afterAll(async () => {
    await connector?.close();
    await closeSandboxes?.();
    await dropDatabase?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers /livez and /readyz without internals, and echoes a sane X-Request-Id', async () => {
    const index = await fetch(`${connectorUrl}/`, { headers: { 'x-request-id': 'lb-42.a:b@c' } });
    expect(index.headers.get('x-request-id')).toBe('lb-42.a:b@c');
    const line = lines().find((l) => l.req?.path === '/' && l.reqId === 'lb-42.a:b@c');
    expect(line).toMatchObject({ level: 'info', msg: 'request completed', status: 200 });

    // a person at the connector's address gets a small page of where to go; a tool gets JSON
    const page = await fetch(`${connectorUrl}/`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    for (const place of ['/install', '/admin/', '/healthz']) expect(html).toContain(place);
    expect(await index.json()).toMatchObject({ service: 'incident-desk connector' });
    // a browser's icon request on any page of the origin is answered, not a 404 warning
    const icon = await fetch(`${connectorUrl}/favicon.ico`);
    expect(icon.status).toBe(204);
    expect(lines().find((l) => l.req?.path === '/favicon.ico')).toMatchObject({ level: 'info' });

    const live = await fetch(`${connectorUrl}/livez`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ ok: true });
    // probes are answered often: their lines are debug, below the default level
    expect(lines().some((l) => l.req?.path === '/livez')).toBe(false);

    // an id too long, or with spaces or control characters, is not taken: a new one is made
    const odd = await fetch(`${connectorUrl}/livez`, {
      headers: { 'x-request-id': 'x'.repeat(200) },
    });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    const ready = await fetch(`${connectorUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      ok: true,
      checks: { database: 'ok', queue: 'ok', migrations: 'ok' },
    });
  });

  it("shows /healthz's queue depths and account counts only to an operator", async () => {
    const viaProxy = await fetch(`${connectorUrl}/healthz`, {
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(viaProxy.status).toBe(200);
    const shown = (await viaProxy.json()) as Record<string, unknown>;
    expect(shown).toMatchObject({ ok: true, database: { ok: true } });
    expect(shown).not.toHaveProperty('queues');
    expect(shown).not.toHaveProperty('accounts');

    const operator = await fetch(`${connectorUrl}/healthz`, {
      headers: { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(await operator.json()).toMatchObject({
      queues: {
        'incident-event': { queued: expect.any(Number) as number },
        'ticket-write': { queued: expect.any(Number) as number },
      },
      accounts: { reauthorizationRequired: 0 },
    });
  });

  it('refuses /metrics without the token, and logs one line with the reason for each refused request', async () => {
    const from = raw.length;
    expect((await metrics(null)).status).toBe(401);
    expect((await metrics('wrong-token-of-some-length')).status).toBe(401);
    const unsigned = await fetch(`${connectorUrl}/webhooks/incident?subscription=nope`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'incident.created', note: 'victim@customer.example' }),
    });
    expect(unsigned.status).toBe(401);
    const huge = await fetch(`${connectorUrl}/ticketing/webhook?account=${demo.accountId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(100_000) }),
    });
    expect(huge.status).toBe(413);

    const refused = lines()
      .slice(from)
      .filter((l) => typeof l.status === 'number' && l.status >= 400);
    expect(refused.map((l) => [l.level, l.msg, l.status, l.reason, l.req?.path])).toEqual([
      ['warn', 'request refused', 401, 'metrics_token_required', '/metrics'],
      ['warn', 'request refused', 401, 'metrics_token_required', '/metrics'],
      ['warn', 'incident webhook refused', 401, 'unknown_subscription', '/webhooks/incident'],
      ['warn', 'ticketing webhook refused', 413, 'payload_too_large', '/ticketing/webhook'],
    ]);
    for (const line of refused) expect(line.reqId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('carries the request id of an incident delivery into its job, and scrapes the named series', async () => {
    // an expired access token: the next Zendesk call renews it (a token refresh)
    await connector.db.prisma.zendeskCredential.update({
      where: { accountId: demo.accountId },
      data: { accessExpiresAt: new Date(Date.now() - 60_000) },
    });
    const threat = `https://login-${backend}.obs-phish.test/signin`;
    const agentToken = zendeskSandbox.issueToken('demo', seed.agentIds[0], ['read', 'write']);
    const tagged = await fetch(`${zendeskUrl}/_z/demo/api/v2/tickets/${seed.ticketIds[1]}.json`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${agentToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        ticket: {
          custom_fields: [{ id: seed.threatFieldId, value: threat }],
          additional_tags: ['incident_submit'],
        },
      }),
    });
    expect(tagged.status).toBe(200);
    const link = await eventually('the incident link', () =>
      connector.db.prisma.incidentLink.findFirst().then((found) => found ?? undefined),
    );
    const record = (await (
      await fetch(`${incidentUrl}/_sandbox/incidents/${encodeURIComponent(link.incidentId)}`)
    ).json()) as { id: string };
    const advanced = await fetch(`${incidentUrl}/_sandbox/incidents/${record.id}/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'case_building', message: 'Analyst started the case.' }),
    });
    expect(advanced.status).toBeLessThan(300);

    const job = await eventually('the incident job line with a delivery request id', () => {
      const all = lines();
      const deliveries = new Set(
        all
          .filter((l) => l.req?.path === '/webhooks/incident' && l.status === 200)
          .map((l) => l.reqId),
      );
      return all.find(
        (l) => l.msg === 'job finished' && l.queue === 'incident-event' && deliveries.has(l.reqId),
      );
    });
    expect(job).toMatchObject({
      level: 'info',
      accountId: demo.accountId,
      jobId: expect.stringMatching(/^[0-9a-f-]{36}$/) as string,
    });
    // the report's job saves the link before it updates the ticket: its line may come later
    const reportJob = await eventually('the report job line with its delivery request id', () => {
      const all = lines();
      const deliveries = new Set(
        all
          .filter((l) => l.req?.path?.startsWith('/ticketing/webhook') && l.status === 200)
          .map((l) => l.reqId),
      );
      return all.find(
        (l) => l.msg === 'job finished' && l.queue === 'ticket-event' && deliveries.has(l.reqId),
      );
    });
    expect(reportJob.reqId).toEqual(expect.any(String));
    await eventually('the note written', () =>
      connector.db.prisma.pendingTicketChange
        .count({ where: { writtenAt: { not: null }, receivedAt: { not: null } } })
        .then((count) => (count > 0 ? count : undefined)),
    );

    const response = await metrics();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const scrape = await response.text();
    const route = { route: '/webhooks/incident', status: '200', method: 'POST' };
    expect(sample(scrape, 'incident_desk_http_requests_total', route)).toBeGreaterThan(0);
    expect(
      sample(scrape, 'incident_desk_http_request_duration_seconds_count', route),
    ).toBeGreaterThan(0);
    expect(
      sample(scrape, 'incident_desk_webhook_deliveries_total', {
        receiver: 'incident',
        verdict: 'accepted',
      }),
    ).toBeGreaterThan(0);
    expect(
      sample(scrape, 'incident_desk_webhook_deliveries_total', {
        receiver: 'incident',
        verdict: 'unknown_subscription',
      }),
    ).toBeGreaterThan(0);
    expect(
      sample(scrape, 'incident_desk_jobs_total', { queue: 'incident-event', outcome: 'applied' }),
    ).toBeGreaterThan(0);
    expect(
      sample(scrape, 'incident_desk_queue_jobs', { queue: 'incident-event', state: 'queued' }),
    ).toEqual(expect.any(Number));
    expect(
      sample(scrape, 'incident_desk_queue_oldest_job_age_seconds', { queue: 'ticket-event' }),
    ).toEqual(expect.any(Number));
    expect(
      sample(scrape, 'incident_desk_upstream_requests_total', {
        service: 'zendesk',
        endpoint: '/api/v2/tickets/{id}.json',
        method: 'PUT',
        status: '200',
      }),
    ).toBeGreaterThan(0);
    expect(
      sample(scrape, 'incident_desk_upstream_requests_total', {
        service: 'incident',
        endpoint: 'incidents.report',
        status: '201',
      }) ?? sample(scrape, 'incident_desk_upstream_requests_total', { service: 'incident' }),
    ).toBeGreaterThan(0);
    expect(
      sample(scrape, 'incident_desk_zendesk_token_refreshes_total', { outcome: 'refreshed' }),
    ).toBeGreaterThan(0);
    expect(sample(scrape, 'incident_desk_event_to_note_seconds_count')).toBeGreaterThan(0);
    expect(sample(scrape, 'incident_desk_ticket_write_changes_count')).toBeGreaterThan(0);
    expect(sample(scrape, 'incident_desk_database_statements_total')).toBeGreaterThan(0);
    expect(sample(scrape, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(
      sample(scrape, 'incident_desk_job_duration_seconds_count', {
        queue: 'incident-event',
        outcome: 'applied',
      }),
    ).toBeGreaterThan(0);
    // no account, ticket or incident id in any label
    expect(scrape).not.toContain(demo.accountId);
    expect(scrape).not.toContain(link.incidentId);
  });

  it('writes JSON lines with a level, and no secret, token or email in any of them', async () => {
    const credential = await connector.db.prisma.zendeskCredential.findUniqueOrThrow({
      where: { accountId: demo.accountId },
    });
    const secrets = [
      METRICS_TOKEN,
      API_KEY,
      SANDBOX_ZENDESK_CLIENT.secret,
      credential.sealedAccessToken,
      ...config.secrets.keys.map((key) => Buffer.from(key.key).toString('base64')),
    ];
    expect(raw.length).toBeGreaterThan(10);
    for (const line of raw) {
      const entry = JSON.parse(line) as LogLine;
      expect(['debug', 'info', 'warn', 'error']).toContain(entry.level);
      expect(typeof entry.msg).toBe('string');
      expect(line).not.toMatch(EMAIL);
      for (const secret of secrets) expect(line).not.toContain(secret);
    }
  });

  it('answers /readyz 503 once the database is gone, while /livez still answers', async () => {
    await connector.db.close();
    const ready = await fetch(`${connectorUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      ok: false,
      checks: { database: 'failed', queue: 'failed' },
    });
    expect((await fetch(`${connectorUrl}/livez`)).status).toBe(200);
    const health = await fetch(`${connectorUrl}/healthz`);
    expect(health.status).toBe(503);
  });
});

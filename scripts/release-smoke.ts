// Runs the release folder (scripts/release.sh) as an operator would, with `node` and nothing from
// the repository: refuses production on the embedded database, then both sandboxes and two
// connector instances behind one address on PostgreSQL (a schema of its own), and one flow through
// it: a tagged ticket reported and linked, an incident move back on it as an internal note.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx scripts/release-smoke.ts [release]
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DemoSeed } from '@incident-desk/zendesk-sandbox';
import {
  connectorDatabase,
  freePort,
  newSecretsKeys,
  startConnectorProcess,
  type ConnectorProcess,
} from '../apps/connector/test/support/connector-process';
import { eventually } from '../apps/connector/test/support/eventually';
import { sandboxControls } from '../apps/connector/test/support/process-sandboxes';
import { startRoundRobinProxy } from '../apps/connector/test/support/round-robin-proxy';

const releaseDir = path.resolve(process.argv[2] ?? 'release');
const CONNECTOR_MAIN = 'apps/connector/dist/main.js';
if (!existsSync(path.join(releaseDir, CONNECTOR_MAIN))) {
  throw new Error(`no release in ${releaseDir}: run scripts/release.sh first`);
}
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const started = Date.now();
const step = (what: string) => console.log(`release smoke (${Date.now() - started} ms): ${what}`);

/** `node <script>` in the release folder, with only the environment given. */
function runReleased(
  script: string,
  env: Record<string, string>,
): ChildProcess & { output(): string } {
  const child = spawn(process.execPath, ['--enable-source-maps', script], {
    cwd: releaseDir,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return Object.assign(child, { output: () => output });
}

async function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function refusesEmbeddedDatabaseInProduction(): Promise<void> {
  const child = runReleased(CONNECTOR_MAIN, {
    NODE_ENV: 'production',
    CONNECTOR_PORT: String(await freePort()),
    CONNECTOR_PUBLIC_URL: 'https://connector.example.com',
    ZENDESK_CLIENT_ID: 'client',
    ZENDESK_CLIENT_SECRET: 'secret',
    ZENDESK_REDIRECT_URI: 'https://connector.example.com/oauth/callback',
    ZENDESK_BASE_URL_TEMPLATE: 'https://{subdomain}.zendesk.com',
    ZENDESK_APP_ID: '1',
    SECRETS_KEYS: newSecretsKeys(),
  });
  assert.equal(await exitOf(child), 1, child.output());
  assert.match(child.output(), /DATABASE_URL: required when NODE_ENV=production/);
}

async function startReleasedSandbox(
  script: string,
  env: Record<string, string>,
): Promise<ChildProcess & { output(): string }> {
  const child = runReleased(script, env);
  await eventually(`${script} listening`, () => {
    if (child.exitCode !== null) throw new Error(`${script} exited:\n${child.output()}`);
    return /listening on/.test(child.output()) ? true : undefined;
  });
  return child;
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The demo account the released Zendesk sandbox seeded, read through its control API and API. */
async function demoSeedOf(zendeskUrl: string): Promise<DemoSeed> {
  const { users } = await json<{ users: { id: number; role: string }[] }>(
    `${zendeskUrl}/_sandbox/accounts/demo/users`,
  );
  const idOf = (role: string) => users.find((user) => user.role === role)!.id;
  const { access_token: token } = await json<{ access_token: string }>(
    `${zendeskUrl}/_sandbox/accounts/demo/tokens`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: idOf('admin') }),
    },
  );
  const { ticket_fields: fields } = await json<{ ticket_fields: { id: number; title: string }[] }>(
    `${zendeskUrl}/_z/demo/api/v2/ticket_fields`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  const fieldId = (title: string) => fields.find((field) => field.title === title)!.id;
  const agents = users.filter((user) => user.role === 'agent').map((user) => user.id);
  return {
    subdomain: 'demo',
    adminId: idOf('admin'),
    agentIds: [agents[0]!, agents[1]!],
    endUserId: idOf('end-user'),
    threatFieldId: fieldId('Threat URL'),
    incidentFieldId: fieldId('Incident ID'),
    statusFieldId: fieldId('Incident Status'),
    ticketIds: [],
  };
}

const children: ChildProcess[] = [];
const instances: ConnectorProcess[] = [];
const dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-release-smoke-'));
const database = connectorDatabase('postgres', dir, 'release_smoke');
const proxy = await startRoundRobinProxy([]);
try {
  step('production refuses the embedded database');
  await refusesEmbeddedDatabaseInProduction();

  step('sandboxes');
  const [zendeskPort, incidentPort, firstPort, secondPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const zendeskUrl = `http://127.0.0.1:${zendeskPort}`;
  const incidentUrl = `http://127.0.0.1:${incidentPort}`;
  children.push(
    await startReleasedSandbox('packages/incident-sandbox/dist/main.js', {
      INCIDENT_SANDBOX_PORT: String(incidentPort),
      INCIDENT_SANDBOX_WEBHOOK_DELAY_MS: '5',
    }),
    await startReleasedSandbox('packages/zendesk-sandbox/dist/main.js', {
      ZENDESK_SANDBOX_PORT: String(zendeskPort),
      ZENDESK_SANDBOX_SEARCH_LAG_MS: '0',
      ZENDESK_SANDBOX_REDIRECT_URIS: `${proxy.url}/oauth/callback`,
    }),
  );
  const sandboxes = sandboxControls(zendeskUrl, incidentUrl, await demoSeedOf(zendeskUrl));

  step('two connector instances on PostgreSQL behind one address');
  const common = {
    zendeskUrl,
    incidentUrl,
    database,
    secretsKeys: newSecretsKeys(),
    publicUrl: proxy.url,
    command: { cwd: releaseDir, args: ['--enable-source-maps', CONNECTOR_MAIN] },
  };
  proxy.setTargets([`http://127.0.0.1:${firstPort}`]);
  instances.push(await startConnectorProcess({ ...common, port: firstPort }));
  instances.push(await startConnectorProcess({ ...common, port: secondPort, demo: false }));
  proxy.setTargets(instances.map((instance) => instance.url));

  step('a tagged ticket is reported and linked');
  const run = randomBytes(3).toString('hex');
  const ticketId = await sandboxes.createTicket({
    threat: `https://login-${run}.release-smoke.test/signin`,
  });
  const incidentId = await eventually(`ticket ${ticketId} linked`, () =>
    sandboxes.linkedIncident(ticketId),
  );

  step(`incident ${incidentId} moves: an internal note`);
  const message = `Analyst ${run} started building the case.`;
  await sandboxes.advance(incidentId, { status: 'case_building', message });
  await eventually('the internal note', async () =>
    (await sandboxes.internalNotes(ticketId)).some((note) => note.includes(message))
      ? true
      : undefined,
  );

  step('health and metrics of each instance');
  const scrapes: string[] = [];
  for (const instance of instances) {
    for (const probe of ['/livez', '/readyz', '/healthz']) {
      const response = await fetch(`${instance.url}${probe}`);
      await response.arrayBuffer();
      assert.equal(response.status, 200, `${instance.url}${probe}`);
    }
    const refused = await fetch(`${instance.url}/metrics`);
    await refused.arrayBuffer();
    assert.equal(refused.status, 401, `${instance.url}/metrics without METRICS_TOKEN`);
    const scrape = await fetch(`${instance.url}/metrics`, {
      headers: { authorization: `Bearer ${instance.metricsToken}` },
    });
    assert.equal(scrape.status, 200, `${instance.url}/metrics`);
    scrapes.push(await scrape.text());
  }
  for (const series of [
    'incident_desk_http_requests_total{',
    'incident_desk_webhook_deliveries_total{',
    'incident_desk_jobs_total{',
    'incident_desk_queue_jobs{',
    'incident_desk_upstream_requests_total{',
    'incident_desk_event_to_note_seconds_count',
  ]) {
    assert.ok(
      scrapes.some((text) => text.includes(series)),
      `a scrape names ${series}`,
    );
  }
  const forwarded = [...proxy.forwarded().values()];
  assert.ok(
    forwarded.length === 2 && forwarded.every((count) => count > 0),
    'both instances received requests',
  );
  step('passed');
} catch (error) {
  for (const instance of instances) {
    console.error(`--- connector ${instance.url} output ---\n${instance.output()}`);
  }
  for (const child of children as (ChildProcess & { output(): string })[]) {
    console.error(`--- sandbox pid ${child.pid} output ---\n${child.output()}`);
  }
  process.exitCode = 1;
  console.error(error);
} finally {
  for (const instance of instances) await instance.stop();
  for (const child of children) {
    child.kill('SIGTERM');
    await exitOf(child);
  }
  await proxy.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
}

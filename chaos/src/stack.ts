// The whole product in one process for the chaos runs: both sandboxes on port 0, the composed
// connector (createConnector) on a server whose address is known before configuration, and two
// accounts installed the way the demo installs one (client credentials, incident connection,
// setup, the sidebar app installed and a sidebar session of its agent). Every secret is generated per run, so the runs can search for them.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  createIncidentSandbox,
  OTHER_ORG_API_KEY,
  type IncidentSandbox,
} from '@incident-desk/incident-sandbox';
import { createSidebarSessions } from '@incident-desk/connector/src/sidebar-api/sidebar-sessions';
import {
  createZendeskSandbox,
  seedDemo,
  type DemoSeed,
  type ZendeskSandbox,
} from '@incident-desk/zendesk-sandbox';
import {
  createIncidentSubscriptionDirectory,
  createZendeskWebhookDirectory,
} from '@incident-desk/connector/src/accounts';
import { createConnector, type Connector } from '@incident-desk/connector/src/app';
import { loadConfig, type ConnectorConfig } from '@incident-desk/connector/src/config/config';
import { runDemo } from '@incident-desk/connector/src/demo/run-demo';
import { secretBinding } from '@incident-desk/connector/src/secrets/secret-bindings';
import { createLogCapture, type LogCapture } from './log-capture';

export type Backend = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when DATABASE_URL is set. */
export const backends: Backend[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface InstalledAccount {
  accountId: string;
  subdomain: string;
  seed: DemoSeed;
  /** A live sidebar session of the agent (what the signed page hands out). */
  sidebarSession: string;
  /** The account's installation of the sidebar app in the Zendesk sandbox. */
  installationId: number;
  incidentApiKey: string;
  incidentClientId: string;
  /** Receiver ids of the account's incident subscriptions (the `subscription` query value). */
  subscriptionIds: string[];
  /** The current signing secret of each subscription, by receiver id. */
  incidentSecrets: Map<string, string>;
  zendeskWebhookSecret: string;
  /** The Zendesk account's id, as its deliveries name it (X-Zendesk-Account-Id). */
  zendeskAccountId: number;
  agent: { id: number; email: string };
}

export interface ChaosStack {
  backend: Backend;
  config: ConnectorConfig;
  connector: Connector;
  url: string;
  incidentUrl: string;
  zendeskUrl: string;
  zendeskSandbox: ZendeskSandbox;
  incidentSandbox: IncidentSandbox;
  a: InstalledAccount;
  b: InstalledAccount;
  /** With `thirdAccount`: a third account on its own incident-service organisation. */
  c?: InstalledAccount;
  logs: LogCapture;
  /** Every plaintext secret this run knows of (keys, client secret, tokens, webhook secrets). */
  secrets(): Promise<string[]>;
  /** Stops the connector (requests meanwhile answer 503) and starts it again on the same database. */
  restart(): Promise<void>;
  /** The environment the connector was configured from (for a child process of it). */
  env: Record<string, string>;
  /**
   * Stops the in-process connector and forwards every request to `url` (a connector process on the
   * same database): 503 with Retry-After while nothing answers there.
   */
  handOver(url: string): Promise<void>;
  /** Stops forwarding and starts the in-process connector again. */
  takeBack(): Promise<void>;
  /** Webhook receipts and queue jobs (every state) of the connector's queues. */
  counts(): Promise<{ receipts: number; jobs: number }>;
  /** The schemas holding the connector's tables and pg-boss's. */
  schemas: { app: string; boss: string };
  close(): Promise<void>;
}

const CHAOS_CLIENT_ID = 'incident_desk_chaos';

/** A minimal reverse proxy: the request as it came, the answer as it comes; 502 when nobody answers. */
function forward(target: URL, req: http.IncomingMessage, res: http.ServerResponse): void {
  const upstream = http.request(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  // 503 with Retry-After, as a load balancer answers while its only backend restarts: Zendesk
  // retries that (and only that), the incident service retries any failure.
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (!res.headersSent)
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' });
    const why = error.code ?? error.message;
    res.end(
      JSON.stringify({
        error: { code: 'unavailable', message: `the connector process is not answering (${why})` },
      }),
    );
  });
  req.pipe(upstream);
}

interface DatabaseEnv {
  env: Record<string, string>;
  schemas: { app: string; boss: string };
  drop(): Promise<void>;
}

function databaseEnv(backend: Backend, dir: string): DatabaseEnv {
  if (backend === 'pglite') {
    return {
      env: { PGLITE_DIR: path.join(dir, 'pglite') },
      schemas: { app: 'public', boss: 'pgboss' },
      drop: async () => undefined,
    };
  }
  const schema = `chaos_${randomBytes(5).toString('hex')}`;
  const url = new URL(process.env.DATABASE_URL!);
  const plain = url.toString();
  url.searchParams.set('schema', schema);
  return {
    env: { DATABASE_URL: url.toString() },
    schemas: { app: schema, boss: `${schema}_pgboss` },
    async drop() {
      const client = new pg.Client({ connectionString: plain });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.query(`DROP SCHEMA IF EXISTS ${schema}_pgboss CASCADE`);
      await client.end();
    },
  };
}

export interface StartOptions {
  /** Delay before the incident sandbox delivers a webhook (ms). Default 5. */
  webhookDelayMs?: number;
  /** The incident sandbox's retry delays. Default [100, 500]. */
  webhookRetryDelaysMs?: number[];
  /** WORKER_JOB_TIMEOUT_SECONDS: how soon a job a killed process held is run again. */
  jobTimeoutSeconds?: number;
  /** The Zendesk sandbox's webhook retry slots (409 delays; one 503 retry each). Default 2. */
  zendeskWebhookRetries?: number[];
  /** Installs a third account ("third"), on an organisation made for it. Default off. */
  thirdAccount?: boolean;
}

export async function startChaosStack(
  backend: Backend,
  options: StartOptions = {},
): Promise<ChaosStack> {
  const logs = createLogCapture();
  const dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-chaos-'));
  const clientSecret = `chaos-client-secret-${randomBytes(12).toString('hex')}`;
  const sealingKey = randomBytes(32).toString('base64');

  const incidentSandbox = createIncidentSandbox({
    webhookDelayMs: options.webhookDelayMs ?? 5,
    webhookRetryDelaysMs: options.webhookRetryDelaysMs ?? [100, 500],
  });
  const incident = await incidentSandbox.listen(0);

  // The connector's address must be known before configuration (redirect URI, webhook targets).
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const zendeskSandbox = createZendeskSandbox({
    searchLagMs: 0,
    globalClients: [
      {
        identifier: CHAOS_CLIENT_ID,
        secret: clientSecret,
        name: 'incident-desk (chaos)',
        redirect_uris: [`${url}/oauth/callback`],
      },
    ],
    // Zendesk retries a 503 with Retry-After once per entry: room for a connector restart.
    webhooks: { retryDelaysMs: options.zendeskWebhookRetries ?? [20, 50] },
  });
  const seedA = seedDemo(zendeskSandbox, 'demo');
  const seedB = seedDemo(zendeskSandbox, 'other');
  const zendesk = await zendeskSandbox.listen(0);
  const incidentUrl = incident.url.replace(/\/+$/, '');
  const zendeskUrl = zendesk.url.replace(/\/+$/, '');

  const database = databaseEnv(backend, dir);
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DEMO: 'false',
    CONNECTOR_PORT: '0',
    CONNECTOR_PUBLIC_URL: url,
    SECRETS_KEYS: `chaos-1:${sealingKey}`,
    ZENDESK_CLIENT_ID: CHAOS_CLIENT_ID,
    ZENDESK_CLIENT_SECRET: clientSecret,
    ZENDESK_REDIRECT_URI: `${url}/oauth/callback`,
    ZENDESK_BASE_URL_TEMPLATE: `${zendeskUrl}/_z/{subdomain}`,
    INCIDENT_API_URL: incidentUrl,
    WORKER_POLL_INTERVAL_SECONDS: '0.5',
    SHUTDOWN_TIMEOUT_MS: '5000',
    // the fuzz and the soak send one account far more signed deliveries than a support team
    // would; the per-account rate has its own tests (ticketing-webhook.test.ts)
    ZENDESK_DELIVERIES_PER_MINUTE: '0',
    ...(options.jobTimeoutSeconds === undefined
      ? {}
      : { WORKER_JOB_TIMEOUT_SECONDS: String(options.jobTimeoutSeconds) }),
    ...database.env,
  };
  const config = loadConfig(env, { log: logs.log });
  let connector = await createConnector(config, { log: logs.log });
  let running = true;
  let target: URL | null = null;
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (target) {
      forward(target, req, res);
      return;
    }
    if (running) {
      connector.app(req, res);
      return;
    }
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
    res.end('{"error":{"code":"restarting","message":"the connector is restarting"}}');
  });

  async function install(
    seed: DemoSeed,
    incidentApiKey: string,
    incidentClientId: string,
    subClientIds: string[],
  ): Promise<InstalledAccount> {
    const { accountId, setup } = await runDemo({
      db: connector.db,
      secretBox: connector.secretBox,
      accounts: connector.accounts,
      oauth: config.oauth,
      demo: {
        zendeskSandboxUrl: zendeskUrl,
        incidentSandboxUrl: incidentUrl,
        subdomain: seed.subdomain,
        incidentApiKey,
        incidentClientId,
        incidentSubClientIds: subClientIds,
      },
      connectorUrl: url,
      log: logs.log,
    });
    const failed = setup.steps.filter((s) => s.outcome === 'failed');
    if (failed.length > 0) {
      throw new Error(`setup of ${seed.subdomain} failed: ${JSON.stringify(failed)}`);
    }
    const subscriptions = await connector.db.prisma.incidentSubscription.findMany({
      where: { accountId },
    });
    const directory = createIncidentSubscriptionDirectory(connector.db, connector.secretBox);
    const incidentSecrets = new Map<string, string>();
    for (const row of subscriptions) {
      const found = await directory.find(row.receiverId);
      incidentSecrets.set(row.receiverId, found!.secrets.at(-1)!);
    }
    const zendeskSecrets = await createZendeskWebhookDirectory(
      connector.db,
      connector.secretBox,
    ).find(accountId);
    const installationId = zendeskSandbox.state.apps.install(seed.subdomain, config.sidebar.appId);
    const session = await createSidebarSessions(connector.db, () => new Date()).open({
      accountId,
      installationId,
      userId: seed.agentIds[0],
    });
    return {
      accountId,
      subdomain: seed.subdomain,
      seed,
      sidebarSession: session.token,
      installationId,
      incidentApiKey,
      incidentClientId,
      subscriptionIds: subscriptions.map((s) => s.receiverId),
      incidentSecrets,
      zendeskWebhookSecret: zendeskSecrets!.secrets[0]!,
      zendeskAccountId: zendeskSandbox.state.account(seed.subdomain)!.id,
      agent: { id: seed.agentIds[0], email: `alex@${seed.subdomain}.example` },
    };
  }

  const a = await install(seedA, 'sandbox-demo-key', 'cl_demo_parent', [
    'cl_demo_retail',
    'cl_demo_bank',
  ]);
  const b = await install(seedB, OTHER_ORG_API_KEY, 'cl_other_org', []);
  let c: InstalledAccount | undefined;
  if (options.thirdAccount) {
    const control = async (route: string, body: unknown) => {
      const response = await fetch(`${incidentUrl}/_sandbox${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
    };
    const clientId = 'cl_chaos_third';
    const apiKey = `chaos-third-key-${randomBytes(12).toString('hex')}`;
    await control('/clients', { id: clientId, name: 'Chaos third organisation' });
    // The same scopes the other organisation's key has.
    const otherKey = incidentSandbox.store.state.apiKeys.find((k) => k.key === OTHER_ORG_API_KEY);
    await control('/keys', {
      key: apiKey,
      clientId,
      scopes: otherKey?.scopes ?? ['incidents:read'],
    });
    c = await install(seedDemo(zendeskSandbox, 'third'), apiKey, clientId, []);
  }

  const queueNames = ['incident-event', 'ticket-event'];
  let closed = false;
  return {
    backend,
    config,
    get connector() {
      return connector;
    },
    url,
    incidentUrl,
    zendeskUrl,
    zendeskSandbox,
    incidentSandbox,
    a,
    b,
    ...(c ? { c } : {}),
    logs,
    schemas: database.schemas,
    async secrets() {
      const tokens: string[] = [];
      for (const row of await connector.db.prisma.zendeskCredential.findMany()) {
        tokens.push(
          await connector.secretBox.open(
            row.sealedAccessToken,
            secretBinding.zendeskAccessToken(row.accountId),
          ),
        );
        if (row.sealedRefreshToken)
          tokens.push(
            await connector.secretBox.open(
              row.sealedRefreshToken,
              secretBinding.zendeskRefreshToken(row.accountId),
            ),
          );
      }
      return [
        sealingKey,
        Buffer.from(sealingKey, 'base64').toString('hex'),
        clientSecret,
        ...tokens,
        ...[a, b, ...(c ? [c] : [])].flatMap((account) => [
          account.sidebarSession,
          account.incidentApiKey,
          account.zendeskWebhookSecret,
          ...account.incidentSecrets.values(),
        ]),
      ];
    },
    env,
    async handOver(to) {
      running = false;
      await connector.close();
      target = new URL(to);
    },
    async takeBack() {
      target = null;
      connector = await createConnector(config, { log: logs.log });
      running = true;
    },
    async restart() {
      running = false;
      await connector.close();
      connector = await createConnector(config, { log: logs.log });
      running = true;
    },
    async counts() {
      const rows = await connector.db.prisma.$queryRawUnsafe<{ n: unknown }[]>(
        `SELECT count(*) AS n FROM "${database.schemas.boss}".job WHERE name = ANY($1)`,
        queueNames,
      );
      return {
        receipts: await connector.db.prisma.webhookReceipt.count(),
        jobs: Number(rows[0]?.n ?? 0),
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await connector.close();
      await zendesk.close();
      await incidentSandbox.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
      logs.restore();
    },
  };
}

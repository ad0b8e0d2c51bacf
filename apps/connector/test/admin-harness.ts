// The admin page's world: the composed connector (createConnector: install, sign-in, admin API,
// setup worker) on a known free port, the Zendesk sandbox with the global client registered for
// that port's callback, and the incident sandbox (seeded with two organisations' keys).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createIncidentSandbox, type IncidentSandbox } from '@incident-desk/incident-sandbox';
import { createZendeskSandbox, type ZendeskSandbox } from '@incident-desk/zendesk-sandbox';
import { createConnector, type Connector, type ConnectorOptions } from '../src/app';
import { loadConfig, type ConnectorConfig } from '../src/config/config';
import {
  cookiesSet,
  followCallback,
  install,
  rememberStateCookie,
  submitApproval,
} from './accounts-harness';
import { freePort } from './support/connector-process';
import { testConnectorDatabase, type Backend } from './support/test-database';

export const CLIENT = { identifier: 'incident_desk_admin_test', secret: 'admin-test-secret' };
const silent = () => undefined;

export interface SignedIn {
  /** The session cookie (`name=value`). */
  cookie: string;
  /** The Lax marker cookie the OAuth callback reads (`name=value`). */
  marker?: string;
  csrf: string;
}

interface InstalledAccount {
  users: { adminId: number; agentId: number };
  accountId: string;
  /** The admin's session. */
  session: SignedIn;
}

export interface AdminHarness {
  connector: Connector;
  config: ConnectorConfig;
  connectorUrl: string;
  sandboxUrl: string;
  incidentUrl: string;
  zendeskSandbox: ZendeskSandbox;
  incidentSandbox: IncidentSandbox;
  createAccount(subdomain: string): Promise<{ adminId: number; agentId: number }>;
  /**
   * The install's callback as the browser that started it gets it (not followed): a 303 to the
   * admin page with its session once installed. `cookies`: the browser's other cookies.
   */
  install(
    subdomain: string,
    userId: number,
    cookies?: string[],
  ): Promise<{ status: number; body: string; response: Response }>;
  accountId(subdomain: string): Promise<string>;
  /** Walks sign-in up to the callback URL (not followed). */
  signInCallback(subdomain: string, userId: number, approveOn?: string): Promise<URL>;
  signIn(subdomain: string, userId: number): Promise<SignedIn>;
  /** A new account with incident-desk installed by its admin, who is signed in to the admin page. */
  installAndSignIn(subdomain: string): Promise<InstalledAccount>;
  api(
    session: SignedIn | null,
    method: string,
    route: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Stops the connector and starts a new one on the same database and port. */
  restart(worker: 'on' | 'off'): Promise<void>;
  close(): Promise<void>;
}

export async function startAdminHarness(
  backend: Backend,
  options: {
    adminDistDir?: string;
    /** Reach the Zendesk sandbox as `localhost` (another site than the connector's 127.0.0.1). */
    sandboxHost?: 'localhost';
    /** CONNECTOR_WORKER: off = this process only enqueues (jobs wait for a worker). */
    worker?: 'on' | 'off';
    /** More connector variables, e.g. INCIDENT_CONSOLE_URL. */
    env?: Record<string, string>;
    /** The account writers' pacing (tests shorten their waits). */
    ticketWriter?: ConnectorOptions['ticketWriter'];
  } = {},
): Promise<AdminHarness> {
  const dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-admin-'));
  const port = await freePort();
  const connectorUrl = `http://127.0.0.1:${port}`;
  const incidentSandbox = createIncidentSandbox({ webhookDelayMs: 5, webhookRetryDelaysMs: [100] });
  const incident = await incidentSandbox.listen(0);
  const zendeskSandbox = createZendeskSandbox({
    searchLagMs: 0,
    globalClients: [
      { ...CLIENT, name: 'incident-desk', redirect_uris: [`${connectorUrl}/oauth/callback`] },
    ],
    webhooks: { retryDelaysMs: [20, 50] },
  });
  const zendesk = await zendeskSandbox.listen(0);
  const listenedUrl = zendesk.url.replace(/\/+$/, '');
  const sandboxUrl = options.sandboxHost
    ? listenedUrl.replace(/\/\/[^/:]+:/, `//${options.sandboxHost}:`)
    : listenedUrl;
  const incidentUrl = incident.url.replace(/\/+$/, '');
  const database = testConnectorDatabase(backend, dir, 'admin');
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      DEMO: 'false',
      CONNECTOR_PORT: String(port),
      CONNECTOR_PUBLIC_URL: connectorUrl,
      ZENDESK_BASE_URL_TEMPLATE: `${sandboxUrl}/_z/{subdomain}`,
      ZENDESK_CLIENT_ID: CLIENT.identifier,
      ZENDESK_CLIENT_SECRET: CLIENT.secret,
      INCIDENT_API_URL: incidentUrl,
      WORKER_POLL_INTERVAL_SECONDS: '0.5',
      CONNECTOR_WORKER: options.worker ?? 'on',
      SHUTDOWN_TIMEOUT_MS: '10000',
      // these tests sign in many times from one address
      OAUTH_START_LIMIT: '1000',
      ...database.env,
      ...options.env,
    },
    { secretKeysFile: path.join(dir, 'secret-keys.json'), log: silent },
  );
  const connectorOptions: ConnectorOptions = {
    log: silent,
    ...(options.adminDistDir ? { adminDistDir: options.adminDistDir } : {}),
    ...(options.ticketWriter ? { ticketWriter: options.ticketWriter } : {}),
  };
  const connector = await createConnector(config, connectorOptions);
  let listening = await connector.listen(port, '127.0.0.1');
  const endpoints = { connectorUrl, sandboxUrl };

  async function control(route: string, body: unknown) {
    const response = await fetch(`${sandboxUrl}/_sandbox${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`control ${route}: ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  }

  async function signInCallback(subdomain: string, userId: number, approveOn = subdomain) {
    const start = await fetch(`${connectorUrl}/admin/sign-in?subdomain=${subdomain}`, {
      redirect: 'manual',
    });
    if (start.status !== 302) throw new Error(`sign-in answered ${start.status}`);
    const authorizeUrl = rememberStateCookie(start);
    // approveOn: the same request shown on another account's Zendesk (a code from elsewhere)
    authorizeUrl.pathname = authorizeUrl.pathname.replace(`/_z/${subdomain}/`, `/_z/${approveOn}/`);
    const page = await (await fetch(authorizeUrl)).text();
    return submitApproval(endpoints, page, 'allow', userId);
  }

  const harness: AdminHarness = {
    connector,
    config,
    connectorUrl,
    sandboxUrl,
    incidentUrl,
    zendeskSandbox,
    incidentSandbox,
    async createAccount(subdomain) {
      const created = await control('/accounts', {
        subdomain,
        users: [
          { name: 'Ada Admin', email: `admin@${subdomain}.example`, role: 'admin' },
          { name: 'Abe Agent', email: `agent@${subdomain}.example`, role: 'agent' },
        ],
      });
      const users = created.users as { id: number }[];
      return { adminId: users[0]!.id, agentId: users[1]!.id };
    },
    install: (subdomain, userId, cookies = []) =>
      install(endpoints, subdomain, userId, { redirect: 'manual', cookies }),
    async accountId(subdomain) {
      const account = await connector.db.prisma.account.findUniqueOrThrow({
        where: { zendeskSubdomain: subdomain },
      });
      return account.id;
    },
    signInCallback,
    async signIn(subdomain, userId) {
      const callback = await followCallback(await signInCallback(subdomain, userId), {
        redirect: 'manual',
      });
      if (callback.status !== 303)
        throw new Error(`callback answered ${callback.status}: ${await callback.text()}`);
      const set = cookiesSet(callback);
      const cookie = set.find((pair) => /^(__Host-)?incident-desk-admin=/.test(pair))!;
      const marker = set.find((pair) => /^(__Host-)?incident-desk-admin-seen=/.test(pair))!;
      const session = await fetch(`${connectorUrl}/admin/api/session`, { headers: { cookie } });
      const { csrfToken } = (await session.json()) as { csrfToken: string };
      return { cookie, marker, csrf: csrfToken };
    },
    async installAndSignIn(subdomain) {
      const users = await harness.createAccount(subdomain);
      const installed = await harness.install(subdomain, users.adminId);
      if (installed.status !== 303)
        throw new Error(`installing ${subdomain} answered ${installed.status}: ${installed.body}`);
      return {
        users,
        accountId: await harness.accountId(subdomain),
        session: await harness.signIn(subdomain, users.adminId),
      };
    },
    async api(session, method, route, body, headers = {}) {
      const response = await fetch(`${connectorUrl}${route}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(session ? { cookie: session.cookie, 'x-csrf-token': session.csrf } : {}),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      };
    },
    async restart(worker) {
      await listening.close().catch(() => undefined);
      await harness.connector.close();
      harness.config = { ...config, worker: { ...config.worker, enabled: worker === 'on' } };
      harness.connector = await createConnector(harness.config, connectorOptions);
      listening = await harness.connector.listen(port, '127.0.0.1');
    },
    async close() {
      await listening.close().catch(() => undefined);
      await harness.connector.close();
      await zendesk.close();
      await incidentSandbox.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

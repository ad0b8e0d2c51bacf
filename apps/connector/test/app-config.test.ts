// The connector's configuration: defaults for a zero-configuration start, and every bad value
// refused at start-up with the variable named.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '@incident-desk/db';
import {
  ConfigError,
  loadConfig,
  SANDBOX_APP_ID,
  SANDBOX_ZENDESK_CLIENT,
} from '../src/config/config';

const key = (bytes = 32) => randomBytes(bytes).toString('base64');
let dir: string;
let keysFile: string;
let logged: string[];
const load = (env: Record<string, string>) =>
  loadConfig(env, { secretKeysFile: keysFile, log: (m) => logged.push(m) });

const production = {
  NODE_ENV: 'production',
  CONNECTOR_PUBLIC_URL: 'https://connector.example.com',
  ZENDESK_CLIENT_ID: 'zdg-incident-desk',
  ZENDESK_CLIENT_SECRET: 'client-secret',
  ZENDESK_REDIRECT_URI: 'https://connector.example.com/oauth/callback',
  ZENDESK_BASE_URL_TEMPLATE: 'https://{subdomain}.zendesk.com',
  ZENDESK_APP_ID: '5678',
  DATABASE_URL: 'postgres://connector@db.internal:5432/incident_desk',
};

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-config-'));
  keysFile = path.join(dir, '.data', 'secret-keys.json');
  logged = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('loadConfig', () => {
  it('runs the demo on the sandboxes when nothing is configured', () => {
    const config = load({});
    expect(config.port).toBe(8787);
    expect(config.publicUrl).toBe('http://localhost:8787');
    expect(config.database).toEqual({
      databaseUrl: null,
      migrationsDir: expect.stringMatching(/prisma\/migrations$/) as unknown,
      poolSize: 10,
      acquireTimeoutMs: 10_000,
      jobQueuePoolSize: 10,
    });
    expect(config.adminDistDir).toMatch(/apps\/admin\/dist$/);
    expect(config.oauth.baseUrlTemplate).toBe('http://localhost:8789/_z/{subdomain}');
    expect(config.oauth.redirectUri).toBe('http://localhost:8787/oauth/callback');
    expect(config.incidentApiUrl).toBe('http://localhost:8788');
    expect(config.demo).toMatchObject({
      zendeskSandboxUrl: 'http://localhost:8789',
      incidentSandboxUrl: 'http://localhost:8788',
      incidentApiKey: 'sandbox-demo-key',
      incidentClientId: 'cl_demo_parent',
      incidentSubClientIds: ['cl_demo_retail', 'cl_demo_bank'],
    });
    // the sidebar app the sandbox's workspace installs; no shared secret anywhere
    expect(config.sidebar.appId).toBe(SANDBOX_APP_ID);
    expect(config.sidebar.distDir).toMatch(/apps\/sidebar\/dist$/);
    expect(JSON.stringify(config.demo)).not.toMatch(/secret/i);
    expect(config.worker).toEqual({
      enabled: true,
      concurrency: 4,
      accountConcurrency: 2,
      ticketWriterConcurrency: 4,
      pollingIntervalSeconds: 2,
      shutdownTimeoutMs: 30_000,
      jobTimeoutSeconds: 300,
      setup: { timeoutSeconds: 600, retryDelaySeconds: 30 },
    });
  });

  it('takes the database pools’ sizes, the acquire timeout and the ticket writers’ concurrency', () => {
    const config = load({
      DATABASE_POOL_SIZE: '25',
      DATABASE_ACQUIRE_TIMEOUT_MS: '2500',
      JOB_QUEUE_POOL_SIZE: '6',
      TICKET_WRITER_CONCURRENCY: '8',
    });
    expect(config.database).toMatchObject({
      poolSize: 25,
      acquireTimeoutMs: 2_500,
      jobQueuePoolSize: 6,
    });
    expect(config.worker.ticketWriterConcurrency).toBe(8);
  });

  it('takes the setup job’s time limit and retry delay, within bounds', () => {
    const config = load({ SETUP_JOB_TIMEOUT_SECONDS: '15', SETUP_RETRY_DELAY_SECONDS: '1' });
    expect(config.worker.setup).toEqual({ timeoutSeconds: 15, retryDelaySeconds: 1 });
    expect(() => load({ SETUP_JOB_TIMEOUT_SECONDS: '2' })).toThrow(/SETUP_JOB_TIMEOUT_SECONDS/);
  });

  it('keeps receipts 7 days, finished jobs 2 and resolved records 30 unless told otherwise', () => {
    expect(load({}).retention).toEqual({ receiptDays: 7, jobDays: 2, resolvedDays: 30 });
    expect(
      load({ RECEIPT_RETENTION_DAYS: '14', JOB_RETENTION_DAYS: '1', RESOLVED_RETENTION_DAYS: '90' })
        .retention,
    ).toEqual({ receiptDays: 14, jobDays: 1, resolvedDays: 90 });
  });

  it('refuses a receipt window shorter than the longest redelivery window, and other bad windows', () => {
    expect(load({ RECEIPT_RETENTION_DAYS: '3' }).retention.receiptDays).toBe(3);
    expect(() => load({ RECEIPT_RETENTION_DAYS: '2' })).toThrow(
      /RECEIPT_RETENTION_DAYS: must be at least 3: receipts deduplicate webhook deliveries/,
    );
    for (const [name, value] of [
      ['RECEIPT_RETENTION_DAYS', 'seven'],
      ['RECEIPT_RETENTION_DAYS', '7.5'],
      ['JOB_RETENTION_DAYS', '0'],
      ['JOB_RETENTION_DAYS', '-1'],
      ['JOB_RETENTION_DAYS', '366'],
      ['RESOLVED_RETENTION_DAYS', ''],
    ] as const) {
      expect(() => load({ [name]: value }), `${name}=${value}`).toThrow(
        new RegExp(`invalid connector configuration: ${name}: `),
      );
    }
    expect(() => load({ RECEIPT_RETENTION_DAYS: '40' })).toThrow(
      /RESOLVED_RETENTION_DAYS: must not be shorter than RECEIPT_RETENTION_DAYS/,
    );
    expect(load({ RECEIPT_RETENTION_DAYS: '40', RESOLVED_RETENTION_DAYS: '40' }).retention).toEqual(
      { receiptDays: 40, jobDays: 2, resolvedDays: 40 },
    );
  });

  it('generates a development key once, private to its owner, and says so', () => {
    const first = load({});
    expect(statSync(keysFile).mode & 0o777).toBe(0o600);
    expect(logged.join('\n')).toMatch(/generated a development key/);
    expect(first.secrets.keys[0]!.key.byteLength).toBe(32);
    const stored = readFileSync(keysFile, 'utf8');

    logged = [];
    const second = load({});
    expect(readFileSync(keysFile, 'utf8')).toBe(stored);
    expect(second.secrets).toEqual(first.secrets);
    expect(logged).toEqual([]);
  });

  it('follows the sandbox ports', () => {
    const config = load({
      ZENDESK_SANDBOX_PORT: '9789',
      INCIDENT_SANDBOX_PORT: '9788',
      CONNECTOR_PORT: '9787',
    });
    expect(config.publicUrl).toBe('http://localhost:9787');
    expect(config.demo).toMatchObject({
      zendeskSandboxUrl: 'http://localhost:9789',
      incidentSandboxUrl: 'http://localhost:9788',
    });
  });

  it('needs the sidebar app id in production: the marketplace app id or ZENDESK_APP_ID', () => {
    const { ZENDESK_APP_ID: _appId, ...withoutAppId } = production;
    expect(() => load({ ...withoutAppId, SECRETS_KEYS: `k1:${key()}` })).toThrow(
      /ZENDESK_APP_ID: required when NODE_ENV=production/,
    );
    expect(
      load({
        ...withoutAppId,
        SECRETS_KEYS: `k1:${key()}`,
        ZENDESK_MARKETPLACE_NAME: 'incident-desk',
        ZENDESK_MARKETPLACE_ORGANIZATION_ID: '1234',
        ZENDESK_MARKETPLACE_APP_ID: '91',
      }).sidebar.appId,
    ).toBe(91);
  });

  it('does not run the demo once something is configured, or when told not to', () => {
    expect(load({ ZENDESK_CLIENT_ID: 'mine', ZENDESK_CLIENT_SECRET: 'x' }).demo).toBeNull();
    expect(load({ DEMO: 'false' }).demo).toBeNull();
    expect(load({ DEMO: 'true', ZENDESK_CLIENT_ID: 'mine' }).demo).not.toBeNull();
  });

  it.each([
    ['CONNECTOR_PORT', { CONNECTOR_PORT: 'eighty' }],
    ['CONNECTOR_PORT', { CONNECTOR_PORT: '70000' }],
    ['CONNECTOR_PUBLIC_URL', { CONNECTOR_PUBLIC_URL: 'connector.example.com' }],
    ['WORKER_CONCURRENCY', { WORKER_CONCURRENCY: '0' }],
    ['DATABASE_POOL_SIZE', { DATABASE_POOL_SIZE: '1' }],
    ['DATABASE_ACQUIRE_TIMEOUT_MS', { DATABASE_ACQUIRE_TIMEOUT_MS: 'soon' }],
    ['JOB_QUEUE_POOL_SIZE', { JOB_QUEUE_POOL_SIZE: '0' }],
    ['TICKET_WRITER_CONCURRENCY', { TICKET_WRITER_CONCURRENCY: '0' }],
    ['WORKER_POLL_INTERVAL_SECONDS', { WORKER_POLL_INTERVAL_SECONDS: 'often' }],
    ['DEMO', { DEMO: 'yes' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
    ['INCIDENT_API_URL', { INCIDENT_API_URL: 'ftp://incidents.example' }],
    ['INCIDENT_CONSOLE_URL', { INCIDENT_CONSOLE_URL: 'https://console.example/incidents' }],
    ['INCIDENT_CONSOLE_URL', { INCIDENT_CONSOLE_URL: 'javascript:alert("{incidentId}")' }],
    ['ZENDESK_BASE_URL_TEMPLATE', { ZENDESK_BASE_URL_TEMPLATE: 'https://acme.zendesk.com' }],
    [
      'ZENDESK_REDIRECT_URI',
      { ZENDESK_REDIRECT_URI: 'http://connector.example.com/oauth/callback' },
    ],
    ['SECRETS_KEYS', { SECRETS_KEYS: `k1:${key(16)}` }],
    ['SECRETS_KEYS', { SECRETS_KEYS: 'no-separator' }],
    ['SECRETS_CURRENT_KEY_ID', { SECRETS_KEYS: `k1:${key()}`, SECRETS_CURRENT_KEY_ID: 'k2' }],
    ['ZENDESK_MARKETPLACE_APP_ID', { ZENDESK_MARKETPLACE_NAME: 'incident-desk' }],
    ['ZENDESK_APP_ID', { ZENDESK_APP_ID: 'app-one' }],
  ])('refuses a bad %s, naming it', (name, env) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(new RegExp(`${name}:`));
  });

  it('links incidents on the admin page only when INCIDENT_CONSOLE_URL names where', () => {
    expect(load({}).incidentConsoleUrl).toBeUndefined();
    expect(
      load({ INCIDENT_CONSOLE_URL: 'https://console.example/incidents/{incidentId}' })
        .incidentConsoleUrl,
    ).toBe('https://console.example/incidents/{incidentId}');
  });

  it("downloads attachments from Zendesk's hosts unless ZENDESK_ATTACHMENT_HOSTS says otherwise", () => {
    expect(load({}).zendeskAttachmentHosts).toEqual(['*.zendesk.com', '*.zdusercontent.com']);
    expect(
      load({ ZENDESK_ATTACHMENT_HOSTS: ' *.zdusercontent.com , https://files.example:8443 ' })
        .zendeskAttachmentHosts,
    ).toEqual(['*.zdusercontent.com', 'https://files.example:8443']);
    expect(() => load({ ZENDESK_ATTACHMENT_HOSTS: '*' })).toThrow(
      /ZENDESK_ATTACHMENT_HOSTS: .*"\*"/,
    );
    expect(() => load({ ZENDESK_ATTACHMENT_HOSTS: 'ftp://files.example' })).toThrow(
      /ZENDESK_ATTACHMENT_HOSTS/,
    );
  });

  it('never echoes a secret in its message', () => {
    const secret = `k1:${key(16)}`;
    expect(() => load({ SECRETS_KEYS: secret })).toThrow(/SECRETS_KEYS/);
    try {
      load({ SECRETS_KEYS: secret });
    } catch (error) {
      expect((error as Error).message).not.toContain(secret.slice(3));
    }
  });

  it('refuses production without SECRETS_KEYS and writes no key file', () => {
    expect(() => load(production)).toThrow(/SECRETS_KEYS: required when NODE_ENV=production/);
    expect(existsSync(keysFile)).toBe(false);
  });

  it('refuses production without the Zendesk client and public URL, naming each', () => {
    expect(() => load({ NODE_ENV: 'production', SECRETS_KEYS: `k1:${key()}` })).toThrow(
      /CONNECTOR_PUBLIC_URL: required.*ZENDESK_CLIENT_ID: required.*ZENDESK_CLIENT_SECRET: required.*ZENDESK_REDIRECT_URI: required.*ZENDESK_BASE_URL_TEMPLATE: required/,
    );
    expect(() => load({ ...production, SECRETS_KEYS: `k1:${key()}`, DEMO: 'true' })).toThrow(
      /DEMO:/,
    );
  });

  it('refuses production on the embedded database unless ALLOW_EMBEDDED_DATABASE=true says so', () => {
    const { DATABASE_URL: _url, ...embedded } = { ...production, SECRETS_KEYS: `k1:${key()}` };
    expect(() => load(embedded)).toThrow(
      /DATABASE_URL: required when NODE_ENV=production.*ALLOW_EMBEDDED_DATABASE=true/,
    );
    expect(() => load({ ...embedded, ALLOW_EMBEDDED_DATABASE: 'yes' })).toThrow(
      /ALLOW_EMBEDDED_DATABASE/,
    );
    const config = load({ ...embedded, ALLOW_EMBEDDED_DATABASE: 'true', PGLITE_DIR: dir });
    expect(config.database).toMatchObject({ databaseUrl: null, pgliteDir: dir });
    // outside production the embedded database needs no permission
    expect(load({}).database.databaseUrl).toBeNull();
  });

  it('finds migrations and built pages where the variables say, relative paths from the repository', () => {
    const config = load({
      MIGRATIONS_DIR: '/srv/connector/migrations',
      ADMIN_DIST_DIR: 'elsewhere/admin',
      SIDEBAR_DIST_DIR: '/srv/connector/sidebar',
    });
    expect(config.database.migrationsDir).toBe('/srv/connector/migrations');
    expect(config.adminDistDir).toBe(path.resolve(repoRoot, 'elsewhere/admin'));
    expect(config.sidebar.distDir).toBe('/srv/connector/sidebar');
  });

  it('refuses each unsafe production setting with one line naming it, unless a lab says so', () => {
    const safe = { ...production, SECRETS_KEYS: `k1:${key()}` };
    const cases: [Record<string, string>, RegExp][] = [
      [
        { CONNECTOR_PUBLIC_URL: 'http://connector.example.com' },
        /CONNECTOR_PUBLIC_URL: must be https/,
      ],
      [
        { ZENDESK_BASE_URL_TEMPLATE: 'http://{subdomain}.zendesk.com' },
        /ZENDESK_BASE_URL_TEMPLATE: must be https/,
      ],
      [
        { INCIDENT_API_URL: 'http://api.incident-service.example' },
        /INCIDENT_API_URL: must be https/,
      ],
      [
        { SECRETS_KEYS: `zero:${Buffer.alloc(32).toString('base64')}` },
        /SECRETS_KEYS: key zero is one byte repeated/,
      ],
      [
        { ZENDESK_CLIENT_SECRET: SANDBOX_ZENDESK_CLIENT.secret },
        /the Zendesk sandbox's published local client/,
      ],
      [
        { ZENDESK_CLIENT_ID: SANDBOX_ZENDESK_CLIENT.id },
        /the Zendesk sandbox's published local client/,
      ],
    ];
    for (const [unsafe, message] of cases) {
      expect(() => load({ ...safe, ...unsafe })).toThrow(message);
      // an explicit lab starts, and says what it allowed
      logged = [];
      expect(load({ ...safe, ...unsafe, ALLOW_INSECURE_LAB: 'true' }).production).toBe(true);
      expect(logged.join('\n')).toMatch(
        /ALLOW_INSECURE_LAB=true: production mode started for a lab despite/,
      );
    }
    // outside production the local stack keeps its plain addresses and the sandbox client
    expect(load({ CONNECTOR_PUBLIC_URL: 'http://localhost:8787' }).production).toBe(false);
  });

  it('reads each secret setting from <NAME>_FILE, never from both', () => {
    const secrets = path.join(dir, 'secrets');
    const keysFile = `${secrets}-keys`;
    const clientSecretFile = `${secrets}-client`;
    writeFileSync(keysFile, `k1:${key()}\n`);
    writeFileSync(clientSecretFile, 'from-a-file\n');
    const config = load({
      ...production,
      SECRETS_KEYS_FILE: keysFile,
      ZENDESK_CLIENT_SECRET: undefined as unknown as string,
      ZENDESK_CLIENT_SECRET_FILE: clientSecretFile,
    });
    expect(config.secrets.keys.map((k) => k.id)).toEqual(['k1']);
    expect(config.oauth.clientSecret).toBe('from-a-file');
    expect(() =>
      load({ ...production, SECRETS_KEYS: `k1:${key()}`, SECRETS_KEYS_FILE: keysFile }),
    ).toThrow(/SECRETS_KEYS, SECRETS_KEYS_FILE: set one of them, not both/);
    expect(() => load({ ...production, SECRETS_KEYS_FILE: path.join(dir, 'missing') })).toThrow(
      /SECRETS_KEYS_FILE: cannot read .*missing \(ENOENT\)/,
    );
  });

  it('takes a production configuration as given, with key rotation and marketplace headers', () => {
    const config = load({
      ...production,
      SECRETS_KEYS: `old:${key()},new:${key()}`,
      SECRETS_CURRENT_KEY_ID: 'new',
      DATABASE_URL: 'postgres://connector@db.internal:5432/incident_desk',
      ZENDESK_MARKETPLACE_NAME: 'incident-desk',
      ZENDESK_MARKETPLACE_ORGANIZATION_ID: '1234',
      ZENDESK_MARKETPLACE_APP_ID: '5678',
      INCIDENT_API_URL: 'https://api.incident-service.example/',
    });
    expect(config.production).toBe(true);
    expect(config.demo).toBeNull();
    expect(config.secrets.currentKeyId).toBe('new');
    expect(config.secrets.keys.map((k) => k.id)).toEqual(['old', 'new']);
    expect(config.database.databaseUrl).toBe('postgres://connector@db.internal:5432/incident_desk');
    expect(config.oauth).toMatchObject({
      clientId: 'zdg-incident-desk',
      baseUrlTemplate: 'https://{subdomain}.zendesk.com',
    });
    expect(config.marketplace).toEqual({
      name: 'incident-desk',
      organizationId: '1234',
      appId: '5678',
    });
    expect(config.incidentApiUrl).toBe('https://api.incident-service.example');
    expect(existsSync(keysFile)).toBe(false);
  });
});

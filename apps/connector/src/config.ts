// The connector's configuration: every environment variable is read here, once, with zod, and a
// bad value stops start-up with a message naming the variable. CONFIGURATION.md lists them.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  checkAttachmentHosts,
  ZENDESK_ATTACHMENT_HOSTS,
  type ZendeskMarketplaceIdentity,
} from '@incident-desk/zendesk-api';
import {
  SETUP_SCOPES,
  STEADY_STATE_SCOPES,
  ZZendeskOAuthConfig,
  type TZendeskOAuthConfig,
} from './accounts/zendesk-oauth-config';
import { DEFAULT_HTTP_LIMITS, type HttpServerLimits } from './http/http-server';
import { DEFAULT_RUNTIME_PATHS, resolveConfiguredPath } from './runtime-paths';
import { LOG_THRESHOLDS, type LogSettings } from './log/logger';
import { unsafeProductionSettings } from './production-safety';
import { MIN_RECEIPT_RETENTION_DAYS } from './retention/redelivery-windows';
import type { RetentionSettings } from './retention/retention-settings';
import { withSecretFiles } from './secret-files';
import { parseSecretKeys, type SecretKey } from './secrets/secret-box';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** What `npm run sandbox:zendesk` registers as its global OAuth client (local use only). */
export const SANDBOX_ZENDESK_CLIENT = {
  id: 'incident_desk_local',
  secret: 'incident-desk-local-secret',
};
/** The app id of the sidebar app the Zendesk sandbox's workspace installs (its folder app). */
export const SANDBOX_APP_ID = 1;

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));
const port = z.coerce.number().int().min(0).max(65_535);
const httpUrl = z.url({ protocol: /^https?$/ });

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  CONNECTOR_PORT: port.default(8787),
  CONNECTOR_HOST: z.string().min(1).default('127.0.0.1'),
  CONNECTOR_PUBLIC_URL: httpUrl.optional(),
  DATABASE_URL: optionalText,
  PGLITE_DIR: optionalText,
  ALLOW_EMBEDDED_DATABASE: z.enum(['true', 'false']).default('false'),
  ALLOW_INSECURE_LAB: z.enum(['true', 'false']).default('false'),
  MIGRATIONS_DIR: optionalText,
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(1_000).default(10),
  DATABASE_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  JOB_QUEUE_POOL_SIZE: z.coerce.number().int().min(2).max(1_000).default(10),
  SECRETS_KEYS: optionalText,
  SECRETS_CURRENT_KEY_ID: optionalText,
  ZENDESK_BASE_URL_TEMPLATE: z.string().includes('{subdomain}').optional(),
  ZENDESK_CLIENT_ID: optionalText,
  ZENDESK_CLIENT_SECRET: optionalText,
  ZENDESK_REDIRECT_URI: optionalText,
  ZENDESK_OAUTH_SCOPE: optionalText,
  ZENDESK_OAUTH_SETUP_SCOPE: optionalText,
  ZENDESK_MARKETPLACE_NAME: optionalText,
  ZENDESK_MARKETPLACE_ORGANIZATION_ID: optionalText,
  ZENDESK_MARKETPLACE_APP_ID: optionalText,
  ZENDESK_ATTACHMENT_HOSTS: optionalText,
  INCIDENT_API_URL: httpUrl.optional(),
  /** Where an incident is seen in a browser, `{incidentId}` in it (the admin page links there). */
  INCIDENT_CONSOLE_URL: z
    .string()
    .includes('{incidentId}')
    .refine((value) => /^https?:\/\//.test(value), 'must be an http(s) address')
    .optional(),
  CONNECTOR_WORKER: z.enum(['on', 'off']).default('on'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  WORKER_ACCOUNT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(2),
  TICKET_WRITER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  WORKER_POLL_INTERVAL_SECONDS: z.coerce.number().min(0.5).max(60).default(2),
  WORKER_JOB_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3_600).default(300),
  SETUP_JOB_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3_600).default(600),
  SETUP_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3_600).default(30),
  RECEIPT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3_650).default(7),
  JOB_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(2),
  RESOLVED_RETENTION_DAYS: z.coerce.number().int().min(1).max(3_650).default(30),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  TICKET_WRITE_LATE_SECONDS: z.coerce.number().int().min(10).max(86_400).default(120),
  INSTALLATION_CHECK_MINUTES: z.coerce.number().int().min(0).max(10_080).default(15),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(600_000)
    .default(DEFAULT_HTTP_LIMITS.headersTimeoutMs),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(3_600_000)
    .default(DEFAULT_HTTP_LIMITS.requestTimeoutMs),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(600_000)
    .default(DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs),
  HTTP_MAX_CONNECTIONS: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(DEFAULT_HTTP_LIMITS.maxConnections),
  HTTP_MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(0).max(1_000_000).optional(),
  DEMO: z.enum(['auto', 'true', 'false']).default('auto'),
  OAUTH_START_LIMIT: z.coerce.number().int().min(0).max(100_000).default(30),
  CONNECTOR_TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  ZENDESK_SANDBOX_PORT: port.default(8789),
  INCIDENT_SANDBOX_PORT: port.default(8788),
  ZENDESK_APP_ID: z.coerce.number().int().positive().optional(),
  SIDEBAR_DIST_DIR: optionalText,
  ADMIN_DIST_DIR: optionalText,
  LOG_LEVEL: z.enum(LOG_THRESHOLDS).default('info'),
  LOG_FORMAT: z.enum(['json', 'text']).default('json'),
  METRICS_TOKEN: optionalText.pipe(
    z.string().min(16, 'must be at least 16 characters (e.g. openssl rand -hex 32)').optional(),
  ),
});
type TEnv = z.infer<typeof ZEnv>;

export interface TDemoConfig {
  zendeskSandboxUrl: string;
  incidentSandboxUrl: string;
  subdomain: string;
  incidentApiKey: string;
  incidentClientId: string;
  incidentSubClientIds: string[];
}

export interface TConnectorConfig {
  production: boolean;
  port: number;
  host: string;
  publicUrl: string;
  database: {
    databaseUrl: string | null;
    pgliteDir?: string;
    migrationsDir: string;
    /** PostgreSQL: connections in the app's pool, and how long a query waits for one (ms). */
    poolSize: number;
    acquireTimeoutMs: number;
    /** PostgreSQL: connections in pg-boss's own pool. */
    jobQueuePoolSize: number;
  };
  /** The built admin page served under /admin/. */
  adminDistDir: string;
  /** Timeouts and connection caps of the HTTP server (http/http-server.ts). */
  http: HttpServerLimits;
  secrets: { keys: SecretKey[]; currentKeyId: string };
  oauth: TZendeskOAuthConfig;
  marketplace?: ZendeskMarketplaceIdentity;
  /**
   * Where ticket attachments may be downloaded from besides each account's own Zendesk origin:
   * host names, `*.suffix` wildcards (HTTPS, public addresses only) or exact origins.
   */
  zendeskAttachmentHosts?: string[];
  /** Default incident service for new connections; the demo connects to it. */
  incidentApiUrl?: string;
  /** An incident's page for people, `{incidentId}` in it; without it incidents are not linked. */
  incidentConsoleUrl?: string;
  worker: {
    /** Off: this process only receives and enqueues; another instance's worker applies the jobs. */
    enabled: boolean;
    concurrency: number;
    /** Jobs of one account run at once per queue, across every instance. */
    accountConcurrency: number;
    /** Accounts whose waiting ticket changes this process writes at once (one pass each in turn). */
    ticketWriterConcurrency: number;
    pollingIntervalSeconds: number;
    shutdownTimeoutMs: number;
    /** A job running longer, or left active by a process that died, is failed and retried after this. */
    jobTimeoutSeconds: number;
    /** An account's setup: stopped and retried (twice, this far apart) when it runs longer. */
    setup: { timeoutSeconds: number; retryDelaySeconds: number };
  };
  /** How long expired rows are kept before retention deletes them (src/retention). */
  retention: RetentionSettings;
  /** An account whose oldest waiting ticket change is older than this is late (/healthz, metrics, admin page). */
  ticketWriteLateSeconds: number;
  /**
   * How often each account's app installation is read to notice an uninstall
   * (disconnect/installation-check-service.ts); 0 = never.
   */
  installationCheckMinutes: number;
  /** The sidebar app: its id in Zendesk (whose key signs its pages) and its built folder. */
  sidebar: { appId: number; distDir: string };
  demo: TDemoConfig | null;
  /** Authorizations (/install, /admin/sign-in) one client may start per 10 minutes; 0 = no limit. */
  oauthStartLimit: number;
  /** Proxy hops in front of the connector whose X-Forwarded-For names the client (0: none). */
  trustProxy: number;
  /** LOG_LEVEL and LOG_FORMAT. */
  logging: LogSettings;
  /** Bearer token for /metrics and /healthz's details; without it /metrics is off. */
  metricsToken?: string;
}

export interface LoadConfigOptions {
  /** Where development keeps its generated key. Default `.data/secret-keys.json` (runtime-paths.ts). */
  secretKeysFile?: string;
  log?: (message: string) => void;
}

/** Variables whose presence means someone configured this connector (so no demo by default). */
const CONFIGURED_BY = [
  'ZENDESK_CLIENT_ID',
  'ZENDESK_CLIENT_SECRET',
  'ZENDESK_BASE_URL_TEMPLATE',
  'INCIDENT_API_URL',
  'SECRETS_KEYS',
] as const;

function fail(problems: string[]): never {
  throw new ConfigError(`invalid connector configuration: ${problems.join('; ')}`);
}

const ZKeysFile = z.object({
  currentKeyId: z.string().min(1),
  keys: z.array(z.object({ id: z.string().min(1), key: z.string().min(1) })).min(1),
});

/** Development only: one generated key, kept across restarts so sealed values stay readable. */
function developmentKeys(
  file: string,
  log: (message: string) => void,
): TConnectorConfig['secrets'] {
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    const stored = {
      currentKeyId: 'dev-1',
      keys: [{ id: 'dev-1', key: randomBytes(32).toString('base64') }],
    };
    writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    log(
      `SECRETS_KEYS is not set: generated a development key in ${file} (never use it in production)`,
    );
  }
  const parsed = ZKeysFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) fail([`${file}: not a key file (${z.prettifyError(parsed.error)})`]);
  return {
    currentKeyId: parsed.data.currentKeyId,
    keys: parsed.data.keys.map((k) => ({
      id: k.id,
      key: new Uint8Array(Buffer.from(k.key, 'base64')),
    })),
  };
}

function secretsOf(env: TEnv, production: boolean, options: LoadConfigOptions) {
  if (!env.SECRETS_KEYS) {
    if (production) fail(['SECRETS_KEYS: required when NODE_ENV=production']);
    return developmentKeys(
      options.secretKeysFile ?? DEFAULT_RUNTIME_PATHS.secretKeysFile,
      options.log ?? console.log,
    );
  }
  let keys: SecretKey[];
  try {
    keys = parseSecretKeys(env.SECRETS_KEYS);
  } catch (error) {
    fail([`SECRETS_KEYS: ${(error as Error).message}`]);
  }
  if (keys.length === 0) fail(['SECRETS_KEYS: no key given']);
  const short = keys.find((k) => k.key.byteLength !== 32);
  if (short) fail([`SECRETS_KEYS: key ${short.id} must be 32 bytes (base64)`]);
  const currentKeyId = env.SECRETS_CURRENT_KEY_ID ?? keys[0]!.id;
  if (!keys.some((k) => k.id === currentKeyId)) {
    fail([`SECRETS_CURRENT_KEY_ID: ${currentKeyId} is not among the SECRETS_KEYS ids`]);
  }
  return { keys, currentKeyId };
}

function marketplaceOf(env: TEnv): ZendeskMarketplaceIdentity | undefined {
  const {
    ZENDESK_MARKETPLACE_NAME: name,
    ZENDESK_MARKETPLACE_ORGANIZATION_ID: organizationId,
    ZENDESK_MARKETPLACE_APP_ID: appId,
  } = env;
  if (!name && !organizationId && !appId) return undefined;
  if (!name || !organizationId || !appId) {
    fail([
      'ZENDESK_MARKETPLACE_NAME, ZENDESK_MARKETPLACE_ORGANIZATION_ID, ZENDESK_MARKETPLACE_APP_ID: set all three or none',
    ]);
  }
  return { name, organizationId, appId };
}

/** ZENDESK_APP_ID, else the marketplace app id, else (outside production) the sandbox's app. */
function sidebarAppIdOf(env: TEnv, production: boolean): number {
  if (env.ZENDESK_APP_ID !== undefined) return env.ZENDESK_APP_ID;
  const marketplaceId = Number(env.ZENDESK_MARKETPLACE_APP_ID);
  if (Number.isSafeInteger(marketplaceId) && marketplaceId > 0) return marketplaceId;
  if (production) fail(['ZENDESK_APP_ID: required when NODE_ENV=production']);
  return SANDBOX_APP_ID;
}

function attachmentHostsOf(env: TEnv): string[] {
  if (env.ZENDESK_ATTACHMENT_HOSTS === undefined) return [...ZENDESK_ATTACHMENT_HOSTS];
  const hosts = env.ZENDESK_ATTACHMENT_HOSTS.split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '');
  try {
    checkAttachmentHosts(hosts);
  } catch (error) {
    fail([`ZENDESK_ATTACHMENT_HOSTS: ${error instanceof Error ? error.message : String(error)}`]);
  }
  return hosts;
}

function retentionOf(env: TEnv): RetentionSettings {
  const problems: string[] = [];
  if (env.RECEIPT_RETENTION_DAYS < MIN_RECEIPT_RETENTION_DAYS) {
    problems.push(
      `RECEIPT_RETENTION_DAYS: must be at least ${MIN_RECEIPT_RETENTION_DAYS}: receipts deduplicate ` +
        `webhook deliveries, and Zendesk and the incident service may deliver one again that late`,
    );
  }
  if (env.RESOLVED_RETENTION_DAYS < env.RECEIPT_RETENTION_DAYS) {
    problems.push(
      'RESOLVED_RETENTION_DAYS: must not be shorter than RECEIPT_RETENTION_DAYS: a resolved ' +
        "reconciliation entry names the retried report's delivery key while its first receipt is kept",
    );
  }
  if (problems.length > 0) fail(problems);
  return {
    receiptDays: env.RECEIPT_RETENTION_DAYS,
    jobDays: env.JOB_RETENTION_DAYS,
    resolvedDays: env.RESOLVED_RETENTION_DAYS,
  };
}

export function loadConfig(
  rawEnv: Record<string, string | undefined>,
  options: LoadConfigOptions = {},
): TConnectorConfig {
  const parsed = ZEnv.safeParse(withSecretFiles(rawEnv, fail));
  if (!parsed.success) {
    fail(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const env = parsed.data;
  const production = env.NODE_ENV === 'production';
  const configured = CONFIGURED_BY.some((name) => env[name] !== undefined);
  if (production && env.DEMO === 'true')
    fail(['DEMO: the demo cannot run with NODE_ENV=production']);
  const demoOn = env.DEMO === 'true' || (env.DEMO === 'auto' && !production && !configured);

  const publicUrl = (env.CONNECTOR_PUBLIC_URL ?? `http://localhost:${env.CONNECTOR_PORT}`).replace(
    /\/+$/,
    '',
  );
  if (production) {
    const missing = (
      [
        'CONNECTOR_PUBLIC_URL',
        'ZENDESK_CLIENT_ID',
        'ZENDESK_CLIENT_SECRET',
        'ZENDESK_REDIRECT_URI',
        'ZENDESK_BASE_URL_TEMPLATE',
        'SECRETS_KEYS',
      ] as const
    )
      .filter((name) => env[name] === undefined)
      .map((name) => `${name}: required when NODE_ENV=production`);
    if (missing.length > 0) fail(missing);
    const unsafe = unsafeProductionSettings(env, SANDBOX_ZENDESK_CLIENT);
    if (unsafe.length > 0 && env.ALLOW_INSECURE_LAB !== 'true') fail(unsafe);
    if (unsafe.length > 0) {
      (options.log ?? console.log)(
        `ALLOW_INSECURE_LAB=true: production mode started for a lab despite: ${unsafe.map((line) => line.split(':')[0]).join(', ')}`,
      );
    }
    if (env.DATABASE_URL === undefined && env.ALLOW_EMBEDDED_DATABASE !== 'true') {
      fail([
        'DATABASE_URL: required when NODE_ENV=production; the embedded PGlite is one process on a local folder without fsync, ' +
          'set ALLOW_EMBEDDED_DATABASE=true to run production on it anyway',
      ]);
    }
  }
  if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
    fail(['HTTP_HEADERS_TIMEOUT_MS: must not be longer than HTTP_REQUEST_TIMEOUT_MS']);
  }
  const retention = retentionOf(env);
  const secrets = secretsOf(env, production, options);

  const zendeskSandboxUrl = `http://localhost:${env.ZENDESK_SANDBOX_PORT}`;
  const oauthInput = {
    clientId: env.ZENDESK_CLIENT_ID ?? SANDBOX_ZENDESK_CLIENT.id,
    clientSecret: env.ZENDESK_CLIENT_SECRET ?? SANDBOX_ZENDESK_CLIENT.secret,
    redirectUri: env.ZENDESK_REDIRECT_URI ?? `${publicUrl}/oauth/callback`,
    baseUrlTemplate:
      env.ZENDESK_BASE_URL_TEMPLATE ??
      (demoOn ? `${zendeskSandboxUrl}/_z/{subdomain}` : 'https://{subdomain}.zendesk.com'),
    scope: env.ZENDESK_OAUTH_SCOPE ?? STEADY_STATE_SCOPES,
    setupScope: env.ZENDESK_OAUTH_SETUP_SCOPE ?? SETUP_SCOPES,
  };
  const oauth = ZZendeskOAuthConfig.safeParse(oauthInput);
  if (!oauth.success) {
    const names: Record<string, string> = {
      clientId: 'ZENDESK_CLIENT_ID',
      clientSecret: 'ZENDESK_CLIENT_SECRET',
      redirectUri: 'ZENDESK_REDIRECT_URI',
      baseUrlTemplate: 'ZENDESK_BASE_URL_TEMPLATE',
      scope: 'ZENDESK_OAUTH_SCOPE',
      setupScope: 'ZENDESK_OAUTH_SETUP_SCOPE',
    };
    fail(
      oauth.error.issues.map(
        (issue) => `${names[String(issue.path[0])] ?? String(issue.path[0])}: ${issue.message}`,
      ),
    );
  }

  const zendeskAttachmentHosts = attachmentHostsOf(env);
  const incidentSandboxUrl = `http://localhost:${env.INCIDENT_SANDBOX_PORT}`;
  const incidentApiUrl = env.INCIDENT_API_URL ?? (production ? undefined : incidentSandboxUrl);
  const marketplace = marketplaceOf(env);
  return {
    production,
    port: env.CONNECTOR_PORT,
    host: env.CONNECTOR_HOST,
    publicUrl,
    database: {
      databaseUrl: env.DATABASE_URL ?? null,
      ...(env.PGLITE_DIR ? { pgliteDir: env.PGLITE_DIR } : {}),
      migrationsDir: resolveConfiguredPath(env.MIGRATIONS_DIR, DEFAULT_RUNTIME_PATHS.migrationsDir),
      poolSize: env.DATABASE_POOL_SIZE,
      acquireTimeoutMs: env.DATABASE_ACQUIRE_TIMEOUT_MS,
      jobQueuePoolSize: env.JOB_QUEUE_POOL_SIZE,
    },
    adminDistDir: resolveConfiguredPath(env.ADMIN_DIST_DIR, DEFAULT_RUNTIME_PATHS.adminDistDir),
    http: {
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: env.HTTP_MAX_CONNECTIONS,
      // behind a proxy every connection comes from the proxy: no per-client cap unless asked
      maxConnectionsPerClient:
        env.HTTP_MAX_CONNECTIONS_PER_CLIENT ??
        (env.CONNECTOR_TRUST_PROXY > 0 ? 0 : DEFAULT_HTTP_LIMITS.maxConnectionsPerClient),
    },
    secrets,
    oauth: oauth.data,
    ...(marketplace ? { marketplace } : {}),
    zendeskAttachmentHosts,
    ...(incidentApiUrl ? { incidentApiUrl: incidentApiUrl.replace(/\/+$/, '') } : {}),
    ...(env.INCIDENT_CONSOLE_URL ? { incidentConsoleUrl: env.INCIDENT_CONSOLE_URL } : {}),
    worker: {
      enabled: env.CONNECTOR_WORKER === 'on',
      concurrency: env.WORKER_CONCURRENCY,
      accountConcurrency: env.WORKER_ACCOUNT_CONCURRENCY,
      ticketWriterConcurrency: env.TICKET_WRITER_CONCURRENCY,
      pollingIntervalSeconds: env.WORKER_POLL_INTERVAL_SECONDS,
      shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
      jobTimeoutSeconds: env.WORKER_JOB_TIMEOUT_SECONDS,
      setup: {
        timeoutSeconds: env.SETUP_JOB_TIMEOUT_SECONDS,
        retryDelaySeconds: env.SETUP_RETRY_DELAY_SECONDS,
      },
    },
    retention,
    ticketWriteLateSeconds: env.TICKET_WRITE_LATE_SECONDS,
    installationCheckMinutes: env.INSTALLATION_CHECK_MINUTES,
    sidebar: {
      appId: sidebarAppIdOf(env, production),
      distDir: resolveConfiguredPath(env.SIDEBAR_DIST_DIR, DEFAULT_RUNTIME_PATHS.sidebarDistDir),
    },
    oauthStartLimit: env.OAUTH_START_LIMIT,
    trustProxy: env.CONNECTOR_TRUST_PROXY,
    logging: { level: env.LOG_LEVEL, format: env.LOG_FORMAT },
    ...(env.METRICS_TOKEN ? { metricsToken: env.METRICS_TOKEN } : {}),
    demo: demoOn
      ? {
          zendeskSandboxUrl,
          incidentSandboxUrl: incidentApiUrl ?? incidentSandboxUrl,
          subdomain: 'demo',
          incidentApiKey: 'sandbox-demo-key',
          incidentClientId: 'cl_demo_parent',
          incidentSubClientIds: ['cl_demo_retail', 'cl_demo_bank'],
        }
      : null,
  };
}

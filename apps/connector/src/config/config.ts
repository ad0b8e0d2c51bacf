// The connector's configuration: every environment variable is read here, once, with zod, and a
// bad value stops start-up with a message naming the variable. docs/configuration.md lists them. The
// variables and their bounds: config-env.ts; each part's rules: config-secret-keys.ts,
// config-zendesk.ts, config-retention.ts, config-production.ts.
import type { TZendeskOAuthConfig, ZendeskMarketplaceIdentity } from '../accounts';
import { ZEnv, type TEnv } from './config-env';
import { fail } from './config-error';
import { checkProductionSettings } from './config-production';
import { retentionOf } from './config-retention';
import { secretsOf, type SecretsConfig } from './config-secret-keys';
import { attachmentHostsOf, marketplaceOf, oauthOf, sidebarAppIdOf } from './config-zendesk';
import { DEFAULT_HTTP_LIMITS, type HttpServerLimits } from '../http';
import type { DeliveryLimit } from '../ingest';
import type { LogSettings } from '../log';
import type { RetentionSettings } from '../retention';
import { DEFAULT_RUNTIME_PATHS, resolveConfiguredPath } from './runtime-paths';
import { withSecretFiles } from './secret-files';

export { ConfigError } from './config-error';
export { SANDBOX_APP_ID, SANDBOX_ZENDESK_CLIENT } from './config-sandbox';

export interface DemoConfig {
  zendeskSandboxUrl: string;
  incidentSandboxUrl: string;
  subdomain: string;
  incidentApiKey: string;
  incidentClientId: string;
  incidentSubClientIds: string[];
}

export interface ConnectorConfig {
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
  secrets: SecretsConfig;
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
  demo: DemoConfig | null;
  /** Authorizations (/install, /admin/sign-in) one client may start per 10 minutes; 0 = no limit. */
  oauthStartLimit: number;
  /** Each account's signed Zendesk deliveries per minute and burst (ingest/delivery-rate.ts). */
  zendeskDeliveryLimit: DeliveryLimit;
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

function parseEnv(rawEnv: Record<string, string | undefined>): TEnv {
  const parsed = ZEnv.safeParse(withSecretFiles(rawEnv, fail));
  if (!parsed.success) {
    fail(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  return parsed.data;
}

/** The demo runs when asked, or by default outside production when nothing is configured. */
function demoWanted(env: TEnv, production: boolean): boolean {
  const configured = CONFIGURED_BY.some((name) => env[name] !== undefined);
  if (production && env.DEMO === 'true')
    fail(['DEMO: the demo cannot run with NODE_ENV=production']);
  return env.DEMO === 'true' || (env.DEMO === 'auto' && !production && !configured);
}

export function loadConfig(
  rawEnv: Record<string, string | undefined>,
  options: LoadConfigOptions = {},
): ConnectorConfig {
  const env = parseEnv(rawEnv);
  const production = env.NODE_ENV === 'production';
  const demoOn = demoWanted(env, production);
  const publicUrl = (env.CONNECTOR_PUBLIC_URL ?? `http://localhost:${env.CONNECTOR_PORT}`).replace(
    /\/+$/,
    '',
  );
  if (production) checkProductionSettings(env, options.log ?? console.log);
  if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
    fail(['HTTP_HEADERS_TIMEOUT_MS: must not be longer than HTTP_REQUEST_TIMEOUT_MS']);
  }
  const retention = retentionOf(env);
  const secrets = secretsOf(env, production, options);

  const zendeskSandboxUrl = `http://localhost:${env.ZENDESK_SANDBOX_PORT}`;
  const oauth = oauthOf(env, publicUrl, zendeskSandboxUrl, demoOn);
  const zendeskAttachmentHosts = attachmentHostsOf(env);
  const incidentSandboxUrl = `http://localhost:${env.INCIDENT_SANDBOX_PORT}`;
  const incidentApiUrl = env.INCIDENT_API_URL ?? (production ? undefined : incidentSandboxUrl);
  const marketplace = marketplaceOf(env);
  return {
    production,
    port: env.CONNECTOR_PORT,
    host: env.CONNECTOR_HOST,
    publicUrl,
    database: databaseOf(env),
    adminDistDir: resolveConfiguredPath(env.ADMIN_DIST_DIR, DEFAULT_RUNTIME_PATHS.adminDistDir),
    http: httpOf(env),
    secrets,
    oauth,
    ...(marketplace ? { marketplace } : {}),
    zendeskAttachmentHosts,
    ...(incidentApiUrl ? { incidentApiUrl: incidentApiUrl.replace(/\/+$/, '') } : {}),
    ...(env.INCIDENT_CONSOLE_URL ? { incidentConsoleUrl: env.INCIDENT_CONSOLE_URL } : {}),
    worker: workerOf(env),
    retention,
    ticketWriteLateSeconds: env.TICKET_WRITE_LATE_SECONDS,
    installationCheckMinutes: env.INSTALLATION_CHECK_MINUTES,
    sidebar: {
      appId: sidebarAppIdOf(env, production),
      distDir: resolveConfiguredPath(env.SIDEBAR_DIST_DIR, DEFAULT_RUNTIME_PATHS.sidebarDistDir),
    },
    oauthStartLimit: env.OAUTH_START_LIMIT,
    zendeskDeliveryLimit: {
      perMinute: env.ZENDESK_DELIVERIES_PER_MINUTE,
      burst: env.ZENDESK_DELIVERY_BURST,
    },
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

function databaseOf(env: TEnv): ConnectorConfig['database'] {
  return {
    databaseUrl: env.DATABASE_URL ?? null,
    ...(env.PGLITE_DIR ? { pgliteDir: env.PGLITE_DIR } : {}),
    migrationsDir: resolveConfiguredPath(env.MIGRATIONS_DIR, DEFAULT_RUNTIME_PATHS.migrationsDir),
    poolSize: env.DATABASE_POOL_SIZE,
    acquireTimeoutMs: env.DATABASE_ACQUIRE_TIMEOUT_MS,
    jobQueuePoolSize: env.JOB_QUEUE_POOL_SIZE,
  };
}

function httpOf(env: TEnv): HttpServerLimits {
  return {
    headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: env.HTTP_MAX_CONNECTIONS,
    // behind a proxy every connection comes from the proxy: no per-client cap unless asked
    maxConnectionsPerClient:
      env.HTTP_MAX_CONNECTIONS_PER_CLIENT ??
      (env.CONNECTOR_TRUST_PROXY > 0 ? 0 : DEFAULT_HTTP_LIMITS.maxConnectionsPerClient),
  };
}

function workerOf(env: TEnv): ConnectorConfig['worker'] {
  return {
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
  };
}

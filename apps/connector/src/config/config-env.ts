// Every environment variable the connector reads, with its type, bounds and default (zod).
import { z } from 'zod';
import { DEFAULT_HTTP_LIMITS } from '../http';
import { DEFAULT_DELIVERY_LIMIT } from '../ingest';
import { LOG_THRESHOLDS } from '../log';

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));
const port = z.coerce.number().int().min(0).max(65_535);
const httpUrl = z.url({ protocol: /^https?$/ });

export const ZEnv = z.object({
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
  ZENDESK_DELIVERIES_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(DEFAULT_DELIVERY_LIMIT.perMinute),
  ZENDESK_DELIVERY_BURST: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(DEFAULT_DELIVERY_LIMIT.burst),
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
export type TEnv = z.infer<typeof ZEnv>;

// The real connector (src/main.ts) as a child process, for tests that kill it or run two of them:
// the zero-configuration demo wired to sandboxes the test runs, on a database the test owns (a
// PGlite folder, or a schema of the PostgreSQL test database) so it survives a restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { CHILD_STALL_MS, childProgress } from './child-progress';
import { eventually, whileProgressing } from './eventually';
import type { Backend } from './test-database';

const connectorDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A port free right now; the connector needs a fixed one, since the sandboxes' webhooks name it. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface ConnectorDatabase {
  backend: Backend;
  /** DATABASE_URL or PGLITE_DIR for the child. */
  env: Record<string, string>;
  /** PostgreSQL only: a query on the connector's schema while it runs. */
  query?<TRow>(text: string, values?: unknown[]): Promise<TRow[]>;
  drop(): Promise<void>;
}

/** A fresh database kept across restarts: a PGlite folder under `dir`, or its own schema. */
/** Runs `work` on a PostgreSQL client of its own, connected for it and closed after. */
export async function withPostgresClient<T>(
  connectionString: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function connectorDatabase(backend: Backend, dir: string, label: string): ConnectorDatabase {
  if (backend === 'pglite') {
    return {
      backend,
      env: { PGLITE_DIR: path.join(dir, 'pglite') },
      drop: async () => undefined,
    };
  }
  const schema = `${label}_${randomBytes(5).toString('hex')}`;
  const plain = new URL(process.env.DATABASE_URL!);
  const url = new URL(plain);
  url.searchParams.set('schema', schema);
  const withClient = <T>(work: (client: pg.Client) => Promise<T>) =>
    withPostgresClient(plain.toString(), work);
  return {
    backend,
    env: { DATABASE_URL: url.toString() },
    query: (text, values) =>
      withClient(async (client) => {
        await client.query(`SET search_path TO ${schema}`);
        return (await client.query(text, values)).rows;
      }),
    drop: () =>
      withClient(async (client) => {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.query(`DROP SCHEMA IF EXISTS ${schema}_pgboss CASCADE`);
      }),
  };
}

export interface ConnectorProcessOptions {
  port: number;
  zendeskUrl: string;
  incidentUrl: string;
  database: ConnectorDatabase;
  /** Same keys on every start, so what one life sealed the next can open. */
  secretsKeys: string;
  /** `off`: receives and enqueues, applies nothing (CONNECTOR_WORKER). Default on. */
  worker?: 'on' | 'off';
  /** Short, so a job left active by a killed process is retried within a test. Default 10. */
  jobTimeoutSeconds?: number;
  extraEnv?: Record<string, string>;
  /**
   * Where the sandboxes reach it, as registered by the demo set-up (e.g. a proxy in front of
   * several instances). Default its own address.
   */
  publicUrl?: string;
  /** Off: a further instance on a database a first one set up; ready once it listens. Default on. */
  demo?: boolean;
  /**
   * How long start-up (migrations, the demo set-up) may go on without printing or using CPU time.
   * Default CHILD_STALL_MS.
   */
  stallMs?: number;
}

export interface ConnectorProcess {
  url: string;
  pid: number;
  /** Its METRICS_TOKEN: /metrics and /healthz's details. */
  metricsToken: string;
  /** Everything it printed so far (for failure messages). */
  output(): string;
  /** Resolves with how it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: no shutdown handler runs. Resolves once it has exited. */
  kill(): Promise<void>;
  /** SIGTERM: the graceful stop. Resolves once it has exited (SIGKILL after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
  /**
   * Resolves once /healthz shows no job queued, active or deferred on two readings `spanMs` apart
   * (pg-boss refreshes those counts every supervise pass, a fifth of the job timeout). Fails when
   * the process exits, or when neither the counts nor its output changed for `stallMs`.
   */
  queuesIdle(stallMs?: number, spanMs?: number): Promise<void>;
}

export function newSecretsKeys(): string {
  return `crash-test:${randomBytes(32).toString('base64')}`;
}

/**
 * The environment src/main.ts runs with for these options: what the child is given, and what an
 * in-process caller passes to loadConfig to see the same configuration.
 */
export function connectorProcessEnv(
  options: ConnectorProcessOptions,
  metricsToken: string,
): Record<string, string> {
  const url = `http://127.0.0.1:${options.port}`;
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'test',
    DEMO: options.demo === false ? 'false' : 'true',
    CONNECTOR_HOST: '127.0.0.1',
    CONNECTOR_PORT: String(options.port),
    CONNECTOR_PUBLIC_URL: options.publicUrl ?? url,
    SECRETS_KEYS: options.secretsKeys,
    ZENDESK_BASE_URL_TEMPLATE: `${options.zendeskUrl}/_z/{subdomain}`,
    // the demo's readiness check looks for the Zendesk sandbox on localhost at this port
    ZENDESK_SANDBOX_PORT: new URL(options.zendeskUrl).port,
    INCIDENT_API_URL: options.incidentUrl,
    CONNECTOR_WORKER: options.worker ?? 'on',
    WORKER_POLL_INTERVAL_SECONDS: '0.5',
    WORKER_JOB_TIMEOUT_SECONDS: String(options.jobTimeoutSeconds ?? 10),
    SHUTDOWN_TIMEOUT_MS: '5000',
    METRICS_TOKEN: metricsToken,
    ...options.database.env,
    ...options.extraEnv,
  };
}

/**
 * What `node` runs: the build (dist/main.js) under REUSE_BUILD=1, which says it is of these sources
 * (CI builds first; a second of start-up less each time), else the sources through tsx.
 */
function connectorCommand(): string[] {
  const built = path.join(connectorDir, 'dist', 'main.js');
  if (process.env.REUSE_BUILD === '1' && existsSync(built)) return [built];
  return ['--import', 'tsx', 'src/main.ts'];
}

/** Starts the connector; resolves once the demo account is set up (or, without the demo, it listens). */
export async function startConnectorProcess(
  options: ConnectorProcessOptions,
): Promise<ConnectorProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const metricsToken = randomBytes(16).toString('hex');
  const child = spawn(process.execPath, connectorCommand(), {
    cwd: connectorDir,
    env: connectorProcessEnv(options, metricsToken),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const append = (chunk: Buffer) => {
    output += chunk.toString('utf8');
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);

  const queuesIdle = async (stallMs = CHILD_STALL_MS, spanMs = 2_500) => {
    let counts = '';
    let idleSince: number | null = null;
    await eventually(
      `connector ${child.pid}: queues idle`,
      async () => {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`connector exited (${child.exitCode ?? child.signalCode})`);
        const queues = await queueCounts(url, metricsToken);
        counts = JSON.stringify(queues);
        if (queues.every((q) => q.queued + q.active + q.deferred === 0)) {
          idleSince ??= Date.now();
          if (Date.now() - idleSince >= spanMs) return true;
        } else {
          idleSince = null;
        }
        return undefined;
      },
      { stallMs, intervalMs: 250, progress: () => `${counts} ${output.length}` },
    );
  };
  const handle: ConnectorProcess = {
    queuesIdle,
    url,
    metricsToken,
    pid: child.pid!,
    exited,
    output: () => output,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async (timeoutMs = 20_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
  try {
    // the lines are JSON: the quotes around the account's name are escaped
    const [what, ready] =
      options.demo === false
        ? ['listening', /connector listening on/]
        : ['the demo account connected', /demo: account \\?"demo\\?" connected/];
    await whileProgressing(
      `connector ${child.pid} started (${what})`,
      untilReady(child, () => output, ready),
      {
        progress: childProgress(child.pid!, () => output),
        stallMs: options.stallMs ?? CHILD_STALL_MS,
      },
    );
  } catch (error) {
    await handle.kill();
    throw new Error(`${(error as Error).message}\n--- connector output ---\n${output}`, {
      cause: error,
    });
  }
  return handle;
}

interface QueueCounts {
  queued: number;
  active: number;
  deferred: number;
}

/** The counts of each queue /healthz shows (one it does not know counts as busy). */
async function queueCounts(url: string, metricsToken: string): Promise<QueueCounts[]> {
  const response = await fetch(`${url}/healthz`, {
    headers: { authorization: `Bearer ${metricsToken}` },
  });
  const report = (await response.json()) as {
    queues: Record<string, { queued?: number; active?: number; deferred?: number }>;
  };
  return Object.values(report.queues).map((q) => ({
    queued: q.queued ?? 1,
    active: q.active ?? 1,
    deferred: q.deferred ?? 1,
  }));
}

/** Resolves once the output shows `ready`; rejects once it shows a failed set-up, or the child exits. */
function untilReady(child: ChildProcess, output: () => string, ready: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const text = output();
      if (/demo set-up failed|setup had failures/.test(text))
        finish(new Error('connector demo set-up failed'));
      else if (ready.test(text)) finish(null);
    };
    const onExit = (code: number | null, signal: string | null) =>
      finish(new Error(`connector exited (${code ?? signal}) before it was ready`));
    function finish(error: Error | null) {
      child.stdout!.off('data', check);
      child.stderr!.off('data', check);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    }
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', onExit);
  });
}

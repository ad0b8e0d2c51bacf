// The connector as one service: database, job queue, inbox, both receivers, the accounts and
// sidebar routes, and the worker applying both kinds of events. Constructible in-process (tests
// listen on port 0) and closed gracefully: HTTP first, then the worker, then queue and database.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { createJobQueue, openDatabase, type PgBoss, type TDatabase } from '@incident-desk/db';
import {
  accountsRouter,
  createAccountContextProvider,
  createIncidentSubscriptionDirectory,
  createZendeskWebhookDirectory,
} from './accounts';
import type { DatabaseAccountContextProvider } from './accounts/account-context-provider';
import {
  createSetupQueue,
  requestSetup,
  startSetupWorker,
  type SetupWorker,
} from './accounts/setup-job';
import { adminRouter, completeAdminSignIn, cookiePolicyFor } from './admin';
import type { TConnectorConfig } from './config';
import { errorHandler } from './http/http-error';
import { incidentWebhookRouter, type IncidentEventJob } from './http/incident-webhook';
import { ticketingWebhookRouter } from './http/ticketing-webhook';
import { createInbox, type Inbox } from './ingest/inbox';
import { createSecretBox, type SecretBox } from './secrets/secret-box';
import { sidebarApiRouter, type SidebarInstallations } from './sidebar-api';
import { handleIncidentEvent, type IncidentEventDeps } from './sync/incident-events';
import { ticketEventSyncHandler } from './sync/ticket-events';
import {
  createSyncQueues,
  SYNC_QUEUES,
  type SyncQueue,
  type SyncQueueOptions,
} from './worker/queues';
import { startWorker, type Worker } from './worker/worker';

export interface ConnectorOptions {
  /** Tuning of incident events (e.g. a short unlinked wait in tests). */
  incidentEvents?: Omit<IncidentEventDeps, 'db'>;
  queues?: SyncQueueOptions;
  log?: (message: string) => void;
  /** Where the built admin page is (default apps/admin/dist). */
  adminDistDir?: string;
}

export interface ListeningConnector {
  url: string;
  close(): Promise<void>;
}

export interface Connector {
  app: Express;
  db: TDatabase;
  boss: PgBoss;
  inbox: Inbox;
  secretBox: SecretBox;
  accounts: DatabaseAccountContextProvider;
  listen(port: number, host?: string): Promise<ListeningConnector>;
  /** Stops HTTP, the worker (finishing or handing back jobs), the queue and the database. Idempotent. */
  close(): Promise<void>;
}

/** The sidebar's view of installations: the account of a subdomain and its unsealed shared secret. */
function sidebarInstallations(db: TDatabase, secretBox: SecretBox): SidebarInstallations {
  return {
    async find(subdomain) {
      const account = await db.prisma.account.findUnique({
        where: { zendeskSubdomain: subdomain.toLowerCase() },
        include: { configuration: true },
      });
      const sealed = account?.configuration?.sealedSidebarSecret;
      if (!account || !sealed) return null;
      return { accountId: account.id, sharedSecret: await secretBox.open(sealed) };
    },
  };
}

/** An unauthenticated endpoint: failures are named, their details (hosts, URLs) only logged. */
async function health(db: TDatabase, boss: PgBoss, log: (message: string) => void) {
  const problem = (what: string, error: unknown) => {
    log(`health: ${what}: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof Error ? error.name : 'error';
  };
  const database = await db.prisma
    .$queryRawUnsafe('SELECT 1')
    .then(() => ({ ok: true as const }))
    .catch((error: unknown) => ({ ok: false as const, error: problem('database', error) }));
  const queues: Record<string, unknown> = {};
  let queueOk = true;
  for (const name of SYNC_QUEUES) {
    try {
      // pg-boss refreshes these counts periodically; they are indicative, not live.
      const queue = await boss.getQueue(name);
      queues[name] = queue
        ? { queued: queue.queuedCount, active: queue.activeCount, deferred: queue.deferredCount }
        : { missing: true };
      if (!queue) queueOk = false;
    } catch (error) {
      queueOk = false;
      queues[name] = { error: problem(`queue ${name}`, error) };
    }
  }
  return { ok: database.ok && queueOk, database, queues };
}

export async function createConnector(
  config: TConnectorConfig,
  options: ConnectorOptions = {},
): Promise<Connector> {
  const log = options.log ?? console.log;
  const db = await openDatabase({
    databaseUrl: config.database.databaseUrl,
    ...(config.database.pgliteDir ? { pgliteDir: config.database.pgliteDir } : {}),
  });
  let worker: Worker | undefined;
  let setupWorker: SetupWorker | undefined;
  try {
    // Expired jobs (a process killed mid-job) are looked for a few times per job timeout.
    const superviseSeconds = Math.min(
      60,
      Math.max(1, Math.ceil(config.worker.jobTimeoutSeconds / 5)),
    );
    const boss = await createJobQueue(db, {
      // PostgreSQL: a new job wakes the workers at once rather than at their next poll. Not on
      // PGlite: its one connection would serve every woken worker's fetch in turn, and measured
      // (bench/e2e-latency) that queue made notes slower than polling does.
      useListenNotify: db.backend === 'postgres',
      superviseIntervalSeconds: superviseSeconds,
      monitorIntervalSeconds: superviseSeconds,
    });
    await createSyncQueues(boss, {
      expireInSeconds: config.worker.jobTimeoutSeconds,
      ...options.queues,
    });
    await createSetupQueue(boss);
    // PGlite is one process, so there is no NOTIFY to wait for: the jobs the receivers commit wake
    // this process's workers directly, one loop per job.
    const inbox = createInbox(
      db,
      boss,
      db.backend === 'pglite'
        ? { onJobsCommitted: (queue, count) => worker?.wake(queue as SyncQueue, count) }
        : {},
    );
    const secretBox = createSecretBox(config.secrets.keys, config.secrets.currentKeyId);
    const accounts = createAccountContextProvider({
      db,
      secretBox,
      config: {
        oauth: config.oauth,
        ...(config.marketplace ? { marketplace: config.marketplace } : {}),
      },
    });

    const app = express();
    app.disable('x-powered-by');
    app.get('/', (_req, res) => {
      res.json({ service: 'incident-desk connector', health: '/healthz', install: '/install' });
    });
    app.get('/healthz', async (_req, res) => {
      const report = await health(db, boss, log);
      res.status(report.ok ? 200 : 503).json(report);
    });
    app.use(
      incidentWebhookRouter({
        inbox,
        subscriptions: createIncidentSubscriptionDirectory(db, secretBox),
      }),
    );
    app.use(
      ticketingWebhookRouter({ inbox, accounts: createZendeskWebhookDirectory(db, secretBox) }),
    );
    const adminCookies = cookiePolicyFor(config.publicUrl);
    app.use(
      accountsRouter({
        db,
        secretBox,
        oauth: config.oauth,
        // Setup runs in a worker, durably (a pg-boss job), as soon as the install is stored.
        onInstalled: ({ accountId }) => requestSetup(db, boss, accountId, new Date()),
        onAdminSignIn: completeAdminSignIn({
          db,
          oauth: config.oauth,
          cookies: adminCookies,
          now: Date.now,
        }),
      }),
    );
    app.use(
      adminRouter({
        db,
        boss,
        inbox,
        secretBox,
        accounts,
        oauth: config.oauth,
        cookies: adminCookies,
        publicOrigin: new URL(config.publicUrl).origin,
        ...(config.incidentApiUrl ? { incidentApiUrl: config.incidentApiUrl } : {}),
        ...(options.adminDistDir ? { distDir: options.adminDistDir } : {}),
        now: Date.now,
      }),
    );
    app.use(
      sidebarApiRouter({ db, accounts, inbox, installations: sidebarInstallations(db, secretBox) }),
    );
    app.use(errorHandler);

    const incidentDeps: IncidentEventDeps = { db, ...options.incidentEvents };
    if (config.worker.enabled) {
      worker = await startWorker({
        boss,
        db,
        accounts,
        concurrency: config.worker.concurrency,
        pollingIntervalSeconds: config.worker.pollingIntervalSeconds,
        handlers: {
          'incident-event': (ctx, data) =>
            handleIncidentEvent(incidentDeps, ctx, data as IncidentEventJob),
          'ticket-event': ticketEventSyncHandler({ db }),
        },
        onOutcome: (queue, job, outcome) => {
          if (outcome.status === 'failed_permanently') {
            log(`${queue} job ${job.id} failed permanently: ${outcome.reason}`);
          }
        },
      });
      setupWorker = await startSetupWorker(
        boss,
        { db, secretBox, accounts, oauth: config.oauth, connectorUrl: config.publicUrl, log },
        { pollingIntervalSeconds: config.worker.pollingIntervalSeconds },
      );
    } else {
      log('CONNECTOR_WORKER=off: this process receives and enqueues; it applies no jobs');
    }

    const servers = new Set<http.Server>();
    let closing: Promise<void> | undefined;

    async function closeServer(server: http.Server): Promise<void> {
      servers.delete(server);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Requests in flight get a moment to finish; then the sockets go.
      const timer = setTimeout(() => server.closeAllConnections(), 5_000);
      await closed;
      clearTimeout(timer);
    }

    return {
      app,
      db,
      boss,
      inbox,
      secretBox,
      accounts,
      async listen(port, host = config.host) {
        const server = http.createServer(app);
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, host, () => {
            server.off('error', reject);
            resolve();
          });
        });
        servers.add(server);
        const address = server.address() as AddressInfo;
        const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        return { url: `http://${shownHost}:${address.port}`, close: () => closeServer(server) };
      },
      close() {
        closing ??= (async () => {
          await Promise.all([...servers].map((server) => closeServer(server)));
          await Promise.all([worker?.stop(config.worker.shutdownTimeoutMs), setupWorker?.stop()]);
          await db.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await worker?.stop(1_000).catch(() => undefined);
    await setupWorker?.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw error;
  }
}

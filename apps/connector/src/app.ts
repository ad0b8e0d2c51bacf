// The connector as one service: database, job queue, inbox, both receivers, the accounts and
// sidebar routes, and the worker applying both kinds of events. Constructible in-process (tests
// listen on port 0) and closed gracefully: HTTP first, then the worker, then queue and database.
// Its parts: connector/build-services.ts (queue, inbox, secrets, accounts), connector/mount-routes.ts
// (the HTTP surface), connector/start-workers.ts (writers and workers), connector/http-listeners.ts.
import type { Express } from 'express';
import { openDatabase, type PgBoss, type TDatabase } from '@incident-desk/db';
import type { DatabaseAccountContextProvider } from './accounts';
import type { ConnectorConfig } from './config';
import {
  buildServices,
  type ConnectorWorkers,
  httpListeners,
  type ListeningConnector,
  mountRoutes,
  NO_WORKERS,
  startWorkers,
} from './connector';
import type { Inbox } from './ingest';
import { createLogger } from './log';
import { type ConnectorMetrics, createConnectorMetrics } from './metrics';
import type { SecretBox } from './secrets';
import type { SyncDeps, TicketWriterOptions } from './sync';
import type { SyncQueueOptions } from './worker';

export interface ConnectorOptions {
  /** Tuning of incident events (e.g. a short unlinked wait in tests). */
  incidentEvents?: Omit<SyncDeps, 'db'>;
  /** The account writers' pacing (tests shorten the sweep or lower the limits). */
  ticketWriter?: Partial<Omit<TicketWriterOptions, 'db' | 'contextFor' | 'instance'>>;
  queues?: SyncQueueOptions;
  log?: (message: string) => void;
  /** Where the built admin page is (default: config.adminDistDir). */
  adminDistDir?: string;
  /** Where the built sidebar is (default: config.sidebar.distDir). */
  sidebarDistDir?: string;
}

export interface Connector {
  app: Express;
  metrics: ConnectorMetrics;
  db: TDatabase;
  boss: PgBoss;
  inbox: Inbox;
  secretBox: SecretBox;
  accounts: DatabaseAccountContextProvider;
  listen(port: number, host?: string): Promise<ListeningConnector>;
  /** Stops HTTP, the worker (finishing or handing back jobs), the queue and the database. Idempotent. */
  close(): Promise<void>;
}

export async function createConnector(
  config: ConnectorConfig,
  options: ConnectorOptions = {},
): Promise<Connector> {
  // Every line, the `log` option's included, is redacted (log/logger.ts).
  const sink = options.log;
  const logger = createLogger(sink ? (line) => sink(line) : undefined, config.logging);
  const metrics = createConnectorMetrics({ processMetrics: config.metricsToken !== undefined });
  const db = await openDatabase({
    onPoolError: (error) => logger.error('PostgreSQL pool error', { error }),
    databaseUrl: config.database.databaseUrl,
    ...(config.database.pgliteDir ? { pgliteDir: config.database.pgliteDir } : {}),
    migrationsDir: config.database.migrationsDir,
    poolSize: config.database.poolSize,
    acquireTimeoutMs: config.database.acquireTimeoutMs,
  });
  let workers: ConnectorWorkers = NO_WORKERS;
  try {
    const services = await buildServices({
      config,
      db,
      logger,
      metrics,
      queueOptions: options.queues,
      wake: (queue, count) => workers.wake(queue, count),
    });
    const app = mountRoutes({
      config,
      db,
      services,
      logger,
      metrics,
      adminDistDir: options.adminDistDir ?? config.adminDistDir,
      sidebarDistDir: options.sidebarDistDir ?? config.sidebar.distDir,
    });
    workers = await startWorkers({
      config,
      db,
      services,
      logger,
      metrics,
      incidentEvents: options.incidentEvents,
      ticketWriter: options.ticketWriter,
      queueOptions: options.queues,
    });
    const listeners = httpListeners(
      app,
      config,
      (message) => logger.warn(message),
      (reason) => metrics.connectionRefused(reason),
    );
    let closing: Promise<void> | undefined;
    const { boss, inbox, secretBox, accounts } = services;
    return {
      app,
      metrics,
      db,
      boss,
      inbox,
      secretBox,
      accounts,
      listen: (port, host) => listeners.listen(port, host),
      close() {
        closing ??= (async () => {
          await listeners.closeAll();
          await workers.stop(config.worker.shutdownTimeoutMs);
          await db.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}

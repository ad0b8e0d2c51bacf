// The connector's background work: the account writers (pending ticket changes to Zendesk), the
// worker applying both kinds of events, the setup worker, retention (expired rows deleted), the
// installation check (an app uninstalled in Zendesk disconnects its account) and, on PGlite, the
// job table's vacuum (no autovacuum there).
// Off with CONNECTOR_WORKER=off.
import type { TDatabase } from '@incident-desk/db';
import { type SetupWorker, startSetupWorker } from '../accounts';
import type { ConnectorConfig } from '../config';
import type { ConnectorLogger } from '../log';
import type { ConnectorMetrics } from '../metrics';
import { startInstallationChecks } from '../disconnect';
import { type RetentionOptions, startRetention } from '../retention';
import {
  incidentEventSyncHandler,
  startTicketWriter,
  type SyncDeps,
  ticketEventSyncHandler,
  type TicketWriterOptions,
  type TicketWriterService,
  writeHealthRecorder,
} from '../sync';
import {
  type DeadJobSweep,
  startDeadJobSweep,
  startPgliteJobTableVacuum,
  startWorker,
  SYNC_QUEUES,
  type SyncQueue,
  type SyncQueueOptions,
  type Worker,
} from '../worker';
import type { ConnectorServices } from './build-services';

export interface ConnectorWorkers {
  /** Wakes the worker for jobs just committed (PGlite: no NOTIFY); nothing when it is off. */
  wake(queue: SyncQueue, count: number): void;
  /** Stops retention, the worker (finishing or handing back jobs), the setup worker, then the writers. */
  stop(shutdownTimeoutMs: number): Promise<void>;
}

export const NO_WORKERS: ConnectorWorkers = { wake: () => undefined, stop: async () => undefined };

export interface WorkersInput {
  config: ConnectorConfig;
  db: TDatabase;
  services: ConnectorServices;
  logger: ConnectorLogger;
  metrics: ConnectorMetrics;
  incidentEvents: Omit<SyncDeps, 'db'> | undefined;
  ticketWriter: Partial<Omit<TicketWriterOptions, 'db' | 'contextFor' | 'instance'>> | undefined;
  queueOptions?: SyncQueueOptions | undefined;
  /** When retention's passes run (tests run the first at once). */
  retention?: Pick<RetentionOptions, 'firstPassDelayMs' | 'intervalMs'> | undefined;
}

export async function startWorkers(input: WorkersInput): Promise<ConnectorWorkers> {
  const { config, db, services, logger, metrics } = input;
  const log = (message: string) => logger.info(message);
  if (!config.worker.enabled) {
    log('CONNECTOR_WORKER=off: this process receives and enqueues; it applies no jobs');
    return NO_WORKERS;
  }
  const { boss, accounts, secretBox } = services;
  let worker: Worker | undefined;
  let setupWorker: SetupWorker | undefined;
  let deadJobSweep: DeadJobSweep | undefined;
  const writeHealth = writeHealthRecorder(db, { log: (message) => logger.warn(message) });
  const ticketWriter = startAccountWriters(input, writeHealth);
  try {
    worker = await startSyncWorker(input, ticketWriter);
    deadJobSweep = startJobRecovery(input, worker);
    setupWorker = await startSetupWorker(
      boss,
      { db, secretBox, accounts, oauth: config.oauth, connectorUrl: config.publicUrl, log },
      { pollingIntervalSeconds: config.worker.pollingIntervalSeconds },
    );
  } catch (error) {
    deadJobSweep?.stop();
    await worker?.stop(1_000).catch(() => undefined);
    await ticketWriter.stop().catch(() => undefined);
    await writeHealth.settled();
    throw error;
  }
  const running = { worker, setupWorker, deadJobSweep };
  const retention = startRetention({
    db,
    settings: config.retention,
    logger,
    onDeleted: (table, rows) => metrics.retentionDeleted(table, rows),
    ...input.retention,
  });
  const jobTableVacuum = startPgliteJobTableVacuum({
    db,
    onError: (error) => logger.warn('job table vacuum failed', { error }),
  });
  const installationChecks =
    config.installationCheckMinutes > 0
      ? startInstallationChecks({
          db,
          accounts,
          appId: config.sidebar.appId,
          now: () => new Date(),
          intervalMs: config.installationCheckMinutes * 60_000,
          logger,
          onChecked: (result) => metrics.installationChecked(result),
        })
      : undefined;
  return {
    wake: (queue, count) => running.worker.wake(queue, count),
    async stop(shutdownTimeoutMs) {
      running.deadJobSweep.stop();
      await installationChecks?.stop();
      await jobTableVacuum?.stop();
      await retention.stop();
      await Promise.all([running.worker.stop(shutdownTimeoutMs), running.setupWorker.stop()]);
      await ticketWriter.stop();
      await writeHealth.settled();
    },
  };
}

/** The account writers: pending ticket changes to Zendesk, their health and metrics recorded. */
function startAccountWriters(
  input: WorkersInput,
  writeHealth: ReturnType<typeof writeHealthRecorder>,
): TicketWriterService {
  const { config, db, services, logger, metrics } = input;
  return startTicketWriter({
    db,
    contextFor: (accountId) => services.accounts.forAccount(accountId),
    instance: services.liveness,
    concurrency: config.worker.ticketWriterConcurrency,
    log: (message) => logger.warn(message),
    onTakeover: (kind) => metrics.takeover(kind),
    ...input.ticketWriter,
    drain: {
      ...input.ticketWriter?.drain,
      onWritten: (changes, at) =>
        metrics.ticketWrite(
          changes.length,
          changes.map((change) => change.receivedAt ?? null),
          at,
        ),
      onWriteFailure: writeHealth.failed,
      onWriteSucceeded: writeHealth.succeeded,
    },
  });
}

/** The worker applying both kinds of events, its outcomes counted and logged. */
function startSyncWorker(input: WorkersInput, ticketWriter: TicketWriterService): Promise<Worker> {
  const { config, db, services, logger, metrics } = input;
  return startWorker({
    boss: services.boss,
    db,
    accounts: services.accounts,
    concurrency: config.worker.concurrency,
    accountConcurrency: config.worker.accountConcurrency,
    failures: {
      ...(input.queueOptions?.retryLimit === undefined
        ? {}
        : { retryLimit: input.queueOptions.retryLimit }),
      ...(input.queueOptions?.retryDelay === undefined
        ? {}
        : { retryDelaySeconds: input.queueOptions.retryDelay }),
    },
    pollingIntervalSeconds: config.worker.pollingIntervalSeconds,
    handlers: {
      'incident-event': incidentEventSyncHandler({
        db,
        writer: ticketWriter,
        ...input.incidentEvents,
      }),
      'ticket-event': ticketEventSyncHandler({ db }),
    },
    logger,
    onRetry: (queue) => metrics.jobOutcome(queue, 'retried'),
    onDeferred: (queue) => metrics.jobOutcome(queue, 'deferred'),
    onRun: (queue, ended, seconds) => metrics.jobDuration(queue, ended, seconds),
    onOutcome: (queue, job, outcome) => {
      metrics.jobOutcome(queue, outcome.status);
      if (outcome.status === 'failed_permanently') {
        logger.info(`${queue} job ${job.id} failed permanently: ${outcome.reason}`);
      }
    },
  });
}

/** A dead instance's running jobs run again within seconds, logged and counted. */
function startJobRecovery(input: WorkersInput, jobs: Worker): DeadJobSweep {
  const { db, services, logger, metrics } = input;
  return startDeadJobSweep({
    db,
    boss: services.boss,
    queues: SYNC_QUEUES,
    isRunningHere: (jobId) => jobs.isRunning(jobId),
    onRecovered: ({ id, queue, silentSeconds }) => {
      logger.warn(`recovered job ${id} of a dead worker`, {
        queue,
        silentSeconds: Math.round(silentSeconds),
      });
      metrics.takeover('job');
    },
    onError: (error) => logger.warn('dead job sweep failed', { error }),
  });
}

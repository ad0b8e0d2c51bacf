// The connector's services, before any route or worker: the job queue and its queues, the inbox,
// the secret box and the accounts. Nothing here listens or applies a job.
import { capabilitiesOf, createJobQueue, type PgBoss, type TDatabase } from '@incident-desk/db';
import {
  ACCOUNT_SETUP_QUEUE,
  createAccountContextProvider,
  createSetupQueue,
  type DatabaseAccountContextProvider,
} from '../accounts';
import type { ConnectorConfig } from '../config';
import { createInbox, type Inbox } from '../ingest';
import type { ConnectorLogger } from '../log';
import type { ConnectorMetrics } from '../metrics';
import { keepFinishedJobs } from '../retention';
import { createSecretBox, resealUnboundSecrets, type SecretBox } from '../secrets';
import { writeHealthReader, type WriteHealthReader } from '../sync';
import {
  createSyncQueues,
  type InstanceLiveness,
  queueDepthReader,
  startInstanceLiveness,
  SYNC_QUEUES,
  type SyncQueue,
  type SyncQueueOptions,
} from '../worker';

export interface ConnectorServices {
  boss: PgBoss;
  /** False once the queue stopped (readiness reports it). */
  queueRunning: () => boolean;
  queues: ReturnType<typeof queueDepthReader>;
  /** The accounts' ticket-write health (/healthz, metrics, the admin page). */
  ticketWrites: WriteHealthReader;
  /** How many shipped migrations were applied at start (readiness checks they stay). */
  migrationsAtStart: number;
  inbox: Inbox;
  secretBox: SecretBox;
  accounts: DatabaseAccountContextProvider;
  /** This process's instance id and heartbeat; what others know of theirs (worker/instance-liveness.ts). */
  liveness: InstanceLiveness;
}

export async function buildServices(input: {
  config: ConnectorConfig;
  db: TDatabase;
  logger: ConnectorLogger;
  metrics: ConnectorMetrics;
  queueOptions: SyncQueueOptions | undefined;
  /** Wakes this process's workers for jobs just committed (set once the worker runs). */
  wake: (queue: SyncQueue, count: number) => void;
}): Promise<ConnectorServices> {
  const { config, db, logger, metrics } = input;
  metrics.watchDatabaseStatements(() => db.statements.sent);
  const boss = await startJobQueue(config, db, logger);
  let queueRunning = true;
  boss.once('stopped', () => (queueRunning = false));
  const queues = queueDepthReader(db, [...SYNC_QUEUES, ACCOUNT_SETUP_QUEUE]);
  metrics.watchQueues(queues);
  const ticketWrites = writeHealthReader(db, {
    now: () => new Date(),
    lateAfterSeconds: config.ticketWriteLateSeconds,
  });
  metrics.watchTicketWrites(ticketWrites);
  // Every shipped migration was applied by openDatabase (or it threw): readiness checks they stay.
  const [migrated] = await db.prisma.$queryRawUnsafe<{ count: bigint | number }[]>(
    'SELECT count(*) AS count FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  await createSyncQueues(boss, {
    expireInSeconds: config.worker.jobTimeoutSeconds,
    ...input.queueOptions,
  });
  await createSetupQueue(boss, config.worker.setup);
  await keepFinishedJobs(boss, [...SYNC_QUEUES, ACCOUNT_SETUP_QUEUE], config.retention.jobDays);
  // PGlite is one process, so there is no NOTIFY to wait for: the jobs the receivers commit wake
  // this process's workers directly, one loop per job.
  const inbox = createInbox(
    db,
    boss,
    !capabilitiesOf(db).listenNotify
      ? { onJobsCommitted: (queue, count) => input.wake(queue as SyncQueue, count) }
      : {},
  );
  const liveness = await startInstanceLiveness({
    db,
    log: (message) => logger.warn(message),
  });
  // after the workers stopped (they release what this instance holds), before the connection goes
  db.onClose(() => liveness.stop());
  // what other instances' takeover lines name this one by
  logger.info('instance registered', { instanceId: liveness.instanceId });
  const secretBox = createSecretBox(config.secrets.keys, config.secrets.currentKeyId);
  // Values sealed before secrets were bound to their account and column are bound now.
  const resealed = await resealUnboundSecrets(db, secretBox);
  if (resealed > 0)
    logger.info(`secrets: bound ${resealed} sealed values to their account and column`);
  const accounts = accountContexts(config, db, secretBox, metrics);
  return {
    boss,
    queueRunning: () => queueRunning,
    queues,
    ticketWrites,
    migrationsAtStart: Number(migrated?.count ?? 0),
    inbox,
    secretBox,
    accounts,
    liveness,
  };
}

/** pg-boss on the connector's database, supervising expired jobs a few times per job timeout. */
function startJobQueue(config: ConnectorConfig, db: TDatabase, logger: ConnectorLogger) {
  // Expired jobs (a process killed mid-job) are looked for a few times per job timeout.
  const superviseSeconds = Math.min(
    60,
    Math.max(1, Math.ceil(config.worker.jobTimeoutSeconds / 5)),
  );
  return createJobQueue(db, {
    // PostgreSQL: a new job wakes the workers at once rather than at their next poll. Not on
    // PGlite: its one connection would serve every woken worker's fetch in turn, and measured
    // (bench/e2e-latency) that queue made notes slower than polling does.
    useListenNotify: capabilitiesOf(db).listenNotify,
    poolSize: config.database.jobQueuePoolSize,
    superviseIntervalSeconds: superviseSeconds,
    monitorIntervalSeconds: superviseSeconds,
    onError: (error) => logger.error('job queue error', { error }),
  });
}

/** Each account's clients: its own Zendesk token and incident clients, observed by the metrics. */
function accountContexts(
  config: ConnectorConfig,
  db: TDatabase,
  secretBox: SecretBox,
  metrics: ConnectorMetrics,
): DatabaseAccountContextProvider {
  return createAccountContextProvider({
    db,
    secretBox,
    config: {
      oauth: config.oauth,
      ...(config.marketplace ? { marketplace: config.marketplace } : {}),
      ...(config.zendeskAttachmentHosts
        ? { zendeskClientOptions: { attachmentSources: { hosts: config.zendeskAttachmentHosts } } }
        : {}),
      observers: {
        zendeskCall: metrics.zendeskCall,
        incidentCall: metrics.incidentCall,
        tokenRefresh: metrics.tokenRefresh,
      },
    },
  });
}

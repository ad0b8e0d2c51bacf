// What an orchestrator and an operator ask the connector, apart from anything that shows
// internals: /livez (the process answers; no database), /readyz (database reachable, job queue
// started, migrations applied; 503 otherwise), /healthz (the same checks, plus whether every
// account's ticket updates reach Zendesk in time, and, for an operator only, which accounts' do
// not and why, queue depths and the count of accounts waiting for re-authorisation) and /metrics
// (Prometheus, only with METRICS_TOKEN).
//
// An account whose writes fail or lag makes /healthz's `ok` false but never its status: the
// verdict comes from the shared database, so every instance would answer the same 503, and a load
// balancer or orchestrator probing /healthz would take every instance out because one tenant's
// Zendesk is down. The status stays this instance's readiness (/readyz's), for them to act on.
import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type Request, type Router } from 'express';
import type { PgBoss, TDatabase } from '@incident-desk/db';
import type { Logger } from '../log/logger';
import type { ConnectorMetrics, QueueDepthReader } from '../metrics/connector-metrics';
import type {
  WriteHealthOverview,
  WriteHealthReader,
} from '../sync/ticket-writes/write-health-report';
import { sendError } from './app-error';

export interface OperationsRoutesOptions {
  db: TDatabase;
  boss: PgBoss;
  /** A queue the readiness check reads through pg-boss (its own connection on PostgreSQL). */
  probeQueue: string;
  queues: QueueDepthReader;
  /** The accounts' ticket-write health: /healthz's ticketWrites check. */
  ticketWrites: Pick<WriteHealthReader, 'read'>;
  metrics: ConnectorMetrics;
  /** Bearer token for /metrics and /healthz's details; undefined: /metrics is off. */
  metricsToken: string | undefined;
  /** Outside production, /healthz's details are also shown to a direct loopback client. */
  detailsFromLoopback: boolean;
  /** Migrations recorded as applied when this process opened the database. */
  migrationsAtStart: number;
  /** False once pg-boss has stopped (the connector is closing). */
  queueRunning: () => boolean;
  logger: Logger;
}

type Check = 'ok' | 'failed';

/** Accounts listed in /healthz's details at most; the counts cover them all. */
const LISTED_ACCOUNTS_MAX = 100;

/** /healthz's ticketWrites for an operator: the accounts in trouble by subdomain, longest waiting first. */
function ticketWriteDetails(writes: WriteHealthOverview) {
  const troubled = Object.fromEntries(
    Object.entries(writes.troubled).filter(([, count]) => count > 0),
  );
  return {
    ok: writes.accounts.length === 0,
    lateAfterSeconds: writes.lateAfterSeconds,
    oldestWaitingSeconds: writes.oldestWaitingSeconds,
    failing: writes.accounts.filter((account) => account.state === 'failing').length,
    late: writes.accounts.filter((account) => account.state === 'late').length,
    troubled,
    accounts: writes.accounts.slice(0, LISTED_ACCOUNTS_MAX).map((account) => ({
      subdomain: account.subdomain,
      state: account.state,
      cause: account.failure?.cause ?? null,
      status: account.failure?.status ?? null,
      detail: account.failure?.detail ?? null,
      failingSince: account.failure?.since ?? null,
      lastFailureAt: account.failure?.lastAt ?? null,
      waiting: account.waiting,
      oldestWaitingSeconds: account.oldestWaitingSeconds,
    })),
    notListed: Math.max(0, writes.accounts.length - LISTED_ACCOUNTS_MAX),
  };
}

/** /healthz's disconnected accounts for an operator: by reason, the latest first. */
async function disconnectedAccounts(db: TDatabase) {
  const where = { disconnectedAt: { not: null } };
  const [count, rows] = await Promise.all([
    db.prisma.account.count({ where }),
    db.prisma.account.findMany({
      where,
      select: { zendeskSubdomain: true, disconnectReason: true, disconnectedAt: true },
      orderBy: { disconnectedAt: 'desc' },
      take: LISTED_ACCOUNTS_MAX,
    }),
  ]);
  return {
    count,
    accounts: rows.map((row) => ({
      subdomain: row.zendeskSubdomain,
      reason: row.disconnectReason,
      since: row.disconnectedAt?.toISOString() ?? null,
    })),
    notListed: Math.max(0, count - rows.length),
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

function hasToken(req: Request, token: string | undefined): boolean {
  if (!token) return false;
  const header = req.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

/** A client on this host talking to the connector directly: no proxy forwarded it. */
function isDirectLoopback(req: Request): boolean {
  const address = req.socket.remoteAddress ?? '';
  const loopback = address === '::1' || /^(::ffff:)?127\./.test(address);
  return loopback && req.get('x-forwarded-for') === undefined && req.get('forwarded') === undefined;
}

export function operationsRouter(options: OperationsRoutesOptions): Router {
  const { db, boss, logger } = options;
  const router = express.Router();
  const failed = (what: string, error: unknown): Check => {
    // the details (hosts, URLs) go to the log only
    logger.warn(`readiness: ${what} failed`, { error });
    return 'failed';
  };

  async function readiness() {
    const database: Check = await db.prisma
      .$queryRawUnsafe('SELECT 1')
      .then((): Check => 'ok')
      .catch((error: unknown) => failed('database', error));
    const queue: Check = !options.queueRunning()
      ? 'failed'
      : await boss
          .getQueue(options.probeQueue)
          .then((found): Check => (found ? 'ok' : failed('queue', new Error('queue missing'))))
          .catch((error: unknown) => failed('queue', error));
    const migrations: Check =
      database === 'failed'
        ? 'failed'
        : await db.prisma
            .$queryRawUnsafe<{ applied: bigint | number; unfinished: bigint | number }[]>(
              `SELECT count(*) FILTER (WHERE finished_at IS NOT NULL) AS applied,
                 count(*) FILTER (WHERE finished_at IS NULL) AS unfinished
               FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
            )
            .then(([row]): Check => {
              const ok =
                Number(row?.applied ?? 0) >= options.migrationsAtStart &&
                Number(row?.unfinished ?? 0) === 0;
              return ok ? 'ok' : failed('migrations', new Error('migrations not all applied'));
            })
            .catch((error: unknown) => failed('migrations', error));
    return {
      ok: database === 'ok' && queue === 'ok' && migrations === 'ok',
      checks: { database, queue, migrations },
    };
  }

  async function details() {
    const queues = await options.queues
      .read()
      .then(
        (depths) =>
          Object.fromEntries(
            depths.map(({ queue, ...depth }) => [queue, depth] as const),
          ) as Record<string, unknown>,
      )
      .catch((error: unknown) => ({ error: failed('queue depths', error) }));
    // A revoked or expired refresh token stops one account, not the service: the instance stays
    // ready, and the count (never which accounts) tells operators an administrator must reconnect.
    // Disconnected accounts (app uninstalled, grant lost, a disconnect left unfinished) are named,
    // as ticketWrites names its accounts: whose work has stopped, why and since when.
    const accounts = await Promise.all([
      db.prisma.zendeskCredential.count({ where: { state: 'reauthorization_required' } }),
      disconnectedAccounts(db),
    ])
      .then(([reauthorizationRequired, disconnected]) => ({
        reauthorizationRequired,
        disconnected,
      }))
      .catch((error: unknown) => ({ error: failed('accounts', error) }));
    return { queues, accounts };
  }

  router.get('/livez', (_req, res) => {
    res.json({ ok: true });
  });

  router.get('/readyz', async (_req, res) => {
    const report = await readiness();
    res.status(report.ok ? 200 : 503).json(report);
  });

  router.get('/healthz', async (req, res) => {
    const [report, writes] = await Promise.all([
      readiness(),
      options.ticketWrites.read().catch((error: unknown) => {
        failed('ticket writes', error);
        return null;
      }),
    ]);
    const operator =
      hasToken(req, options.metricsToken) || (options.detailsFromLoopback && isDirectLoopback(req));
    const writesOk = writes !== null && writes.accounts.length === 0;
    const body = {
      ok: report.ok && writesOk,
      database: { ok: report.checks.database === 'ok' },
      queue: { ok: report.checks.queue === 'ok' },
      migrations: { ok: report.checks.migrations === 'ok' },
      // the public sees whether, never whose
      ticketWrites: operator && writes ? ticketWriteDetails(writes) : { ok: writesOk },
      ...(operator ? await details() : {}),
    };
    res.status(report.ok ? 200 : 503).json(body);
  });

  router.get('/metrics', async (req, res) => {
    if (!options.metricsToken) {
      return sendError(res, 'metrics_disabled', 'set METRICS_TOKEN to expose /metrics');
    }
    if (!hasToken(req, options.metricsToken)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      return sendError(res, 'metrics_token_required', 'send Authorization: Bearer <METRICS_TOKEN>');
    }
    const text = await options.metrics.registry.metrics();
    res.type(options.metrics.registry.contentType).send(text);
  });
  return router;
}

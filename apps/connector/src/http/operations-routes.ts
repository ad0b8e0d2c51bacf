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
import express, { type Router } from 'express';
import type { PgBoss, TDatabase } from '@incident-desk/db';
import type { Logger } from '../log';
import type { ConnectorMetrics, QueueDepthReader } from '../metrics';
import type { WriteHealthReader } from '../sync';
import { sendError } from './app-error';
import { operatorDetails, ticketWriteDetails } from './health-details';
import { hasToken, isDirectLoopback } from './operator-access';
import { failedCheck, readiness } from './readiness-checks';

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

export function operationsRouter(options: OperationsRoutesOptions): Router {
  const { db } = options;
  const router = express.Router();
  const failed = failedCheck(options.logger);

  router.get('/livez', (_req, res) => {
    res.json({ ok: true });
  });

  router.get('/readyz', async (_req, res) => {
    const report = await readiness(options, failed);
    res.status(report.ok ? 200 : 503).json(report);
  });

  router.get('/healthz', async (req, res) => {
    const [report, writes] = await Promise.all([
      readiness(options, failed),
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
      ...(operator ? await operatorDetails(db, options.queues, failed) : {}),
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

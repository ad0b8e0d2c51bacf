// The server under test, run in a child process so the load generator never shares its event
// loop. BENCH_SERVER_CONFIG chooses the baseline (bare Express route: raw body + HMAC check) or
// the real connector receiver and inbox on PostgreSQL or PGlite. It reports its own CPU, event
// loop and inbox transaction figures for the measured window, then drains and closes the database
// so everything it acknowledged can be counted by the parent.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import express from 'express';
import { verifyWebhook } from '@incident-desk/incident-api';
import { createJobQueue, openDatabase, type TDatabase } from '@incident-desk/db';
import { createInbox, type Inbox } from '../src/ingest/inbox';
import { errorHandler } from '../src/http/app-error';
import { incidentWebhookRouter } from '../src/http/incident-webhook';
import { INCIDENT_EVENT_QUEUE } from '../src/jobs/incident-event-job';
import {
  ZParentMessage,
  ZServerConfig,
  type TChildMessage,
  type TServerConfig,
  type TServerStats,
} from './ipc-messages';
import { meterTransactions, type TransactionMeter } from './transaction-meter';

const WEBHOOK_PATH = '/webhooks/incident';

function send(message: TChildMessage, then?: () => void): void {
  process.send?.(message, undefined, {}, () => then?.());
}

function baselineApp(secret: string): express.Express {
  const app = express();
  app.post(WEBHOOK_PATH, express.raw({ type: () => true, limit: 256 * 1024 }), (req, res) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const verification = verifyWebhook({ secrets: [secret], rawBody, headers: req.headers });
    if (!verification.ok) {
      res.status(401).json({ error: { code: verification.reason } });
      return;
    }
    res.status(200).json({ status: 'accepted' });
  });
  return app;
}

/** Counts inbox writes still running, so shutdown can wait for every one of them. */
class CountingInbox implements Inbox {
  /** Figures count only while a measured run is on. */
  measuring = false;
  inFlight = 0;
  maxInFlight = 0;
  accepted = 0;
  failed = 0;
  constructor(private readonly inner: Inbox) {}

  async accept(entry: Parameters<Inbox['accept']>[0]) {
    this.inFlight += 1;
    if (this.measuring) this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const outcome = await this.inner.accept(entry);
      if (this.measuring) this.accepted += 1;
      return outcome;
    } catch (error) {
      if (this.measuring) this.failed += 1;
      throw error;
    } finally {
      this.inFlight -= 1;
    }
  }

  /** Waits while writes keep finishing; fails once none finished for `stallMs`. */
  async drained(stallMs: number): Promise<void> {
    let left = this.inFlight;
    let movedAt = Date.now();
    while (this.inFlight > 0) {
      if (this.inFlight < left) [left, movedAt] = [this.inFlight, Date.now()];
      if (Date.now() - movedAt > stallMs)
        throw new Error(`${this.inFlight} inbox writes never finished`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** CPU, wall time and event loop use summed over the measured runs only. */
class MeasuredWindow {
  runs = 0;
  wallMs = 0;
  cpuMs = 0;
  private busyMs = 0;
  private open: {
    at: number;
    cpu: NodeJS.CpuUsage;
    elu: ReturnType<typeof performance.eventLoopUtilization>;
  } | null = null;

  resume(): void {
    if (this.open) return;
    this.runs += 1;
    this.open = {
      at: performance.now(),
      cpu: process.cpuUsage(),
      elu: performance.eventLoopUtilization(),
    };
  }

  pause(): void {
    if (!this.open) return;
    const wall = performance.now() - this.open.at;
    const cpu = process.cpuUsage(this.open.cpu);
    this.wallMs += wall;
    this.cpuMs += (cpu.user + cpu.system) / 1000;
    this.busyMs += wall * performance.eventLoopUtilization(this.open.elu).utilization;
    this.open = null;
  }

  get eventLoopUtilization(): number {
    return this.wallMs === 0 ? 0 : this.busyMs / this.wallMs;
  }
}

interface Connector {
  app: express.Express;
  db: TDatabase;
  inbox: CountingInbox;
  meter: TransactionMeter;
}

async function connectorApp(config: Extract<TServerConfig, { kind: 'connector' }>) {
  const db = await openDatabase(
    config.backend === 'postgres'
      ? { databaseUrl: config.databaseUrl ?? null }
      : { databaseUrl: null, pgliteDir: config.pgliteDir },
  );
  await db.prisma.account.create({ data: { id: config.accountId, zendeskSubdomain: 'bench' } });
  const boss = await createJobQueue(db, { supervise: false, schedule: false });
  await boss.createQueue(INCIDENT_EVENT_QUEUE, { policy: 'key_strict_fifo' });
  const meter = meterTransactions(db);
  const inbox = new CountingInbox(createInbox(db, boss));
  const app = express();
  app.use(
    incidentWebhookRouter({
      inbox,
      // In memory: the benchmark measures the receiver and the inbox, not a subscription lookup.
      subscriptions: {
        find: async (id) =>
          id === config.subscriptionId
            ? { accountId: config.accountId, secrets: [config.secret] }
            : null,
      },
    }),
  );
  app.use(errorHandler);
  return { app, db, inbox, meter } satisfies Connector;
}

async function main(): Promise<void> {
  // The benchmark went away (finished or failed): never linger holding a database.
  process.on('disconnect', () => process.exit(1));
  const config = ZServerConfig.parse(JSON.parse(process.env.BENCH_SERVER_CONFIG ?? '{}'));
  const connector = config.kind === 'connector' ? await connectorApp(config) : null;
  const app = connector?.app ?? baselineApp(config.secret);
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;

  const window = new MeasuredWindow();
  process.on('message', (raw) => {
    const message = ZParentMessage.parse(raw);
    const measuring = (on: boolean) => {
      if (on) window.resume();
      else window.pause();
      if (connector) connector.meter.measuring = connector.inbox.measuring = on;
    };
    if (message.type !== 'stop') {
      measuring(message.type === 'resume');
      return;
    }
    measuring(false);
    const wallMs = Math.max(1, window.wallMs);
    const stats: TServerStats = {
      cpuPercent: round((100 * window.cpuMs) / wallMs),
      eventLoopUtilization: round(window.eventLoopUtilization, 3),
      ...(connector
        ? {
            transactions: connector.meter.count,
            acceptedWrites: connector.inbox.accepted,
            failedWrites: connector.inbox.failed,
            transactionBusyPercent: round((100 * connector.meter.busyMs) / wallMs),
            meanTransactionMs: round(
              connector.meter.busyMs / Math.max(1, connector.meter.count),
              2,
            ),
            meanStatementMs: meanPerTransaction(connector.meter),
            maxInFlight: connector.inbox.maxInFlight,
          }
        : {}),
    };
    void (async () => {
      server.close();
      server.closeAllConnections();
      await connector?.inbox.drained(30_000);
      await connector?.db.close();
      send({ type: 'stopped', stats }, () => process.exit(0));
    })().catch((error: unknown) => fail(error));
  });
  send({ type: 'ready', url: `http://127.0.0.1:${port}` });
}

function meanPerTransaction(meter: TransactionMeter): TServerStats['meanStatementMs'] {
  const per = (ms: number) => round(ms / Math.max(1, meter.count), 2);
  const { begin, receipts, jobs, commit, other } = meter.statementMs;
  return {
    begin: per(begin),
    receipts: per(receipts),
    jobs: per(jobs),
    commit: per(commit),
    other: per(other),
  };
}

function round(value: number, digits = 1): number {
  return Number(value.toFixed(digits));
}

function fail(error: unknown): void {
  console.error('server under test failed:', error);
  send({ type: 'failed', error: String(error) }, () => process.exit(1));
}

main().catch(fail);

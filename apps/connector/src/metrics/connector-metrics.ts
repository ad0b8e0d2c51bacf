// The connector's Prometheus metrics (prom-client), one registry per connector so in-process
// instances (tests) keep their counts apart. Labels are bounded: routes as declared, endpoints
// with their ids replaced, reasons from the connector's own codes; never an account id or a
// ticket. One exception: the accounts whose ticket updates wait past the late threshold are named
// by Zendesk subdomain, at most TROUBLED_SERIES_MAX of them, because an operator paged for late
// notes must find the tenant, and a series exists only while its account is late.
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type LabelValues,
} from 'prom-client';
import type { ZendeskCallObservation } from '@incident-desk/zendesk-api';
import type { IncidentCallObservation } from '@incident-desk/incident-api';

const PREFIX = 'incident_desk_';

export type TokenRefreshOutcome =
  'refreshed' | 'already_refreshed' | 'reauthorization_required' | 'failed';

/**
 * What an instance took over from a dead one: an account's ticket writer (its lease), or the
 * ticket changes the dead instance was sending (settled without waiting out their lease).
 */
/** What a live instance takes over from a dead one: a job, an account's writer, the changes it was sending. */
export type TakeoverKind = 'job' | 'ticket_writer' | 'changes_in_flight';

/** What the queue gauges read at each scrape (worker/queue-depths.ts). */
export interface QueueDepthReader {
  read(): Promise<
    { queue: string; queued: number; active: number; deferred: number; oldestAgeSeconds: number }[]
  >;
}

/** What the ticket-write gauges read at each scrape (sync/ticket-writes/write-health-report.ts). */
export interface TicketWriteHealthReader {
  read(): Promise<{
    lateAfterSeconds: number;
    oldestWaitingSeconds: number;
    /** Accounts whose writes fail, per cause, and those late without an error (`late`). */
    troubled: Record<string, number>;
    accounts: readonly { subdomain: string; oldestWaitingSeconds: number | null }[];
  }>;
}

/** Late accounts with a series of their own at most; the rest are in the counts. */
export const TROUBLED_SERIES_MAX = 50;

export interface ConnectorMetrics {
  readonly registry: Registry;
  httpRequest(labels: { method: string; route: string; status: number }, seconds: number): void;
  webhookVerdict(receiver: 'incident' | 'zendesk', verdict: string): void;
  jobOutcome(queue: string, outcome: string): void;
  /** How long one run of a job took, by queue and how it ended. */
  jobDuration(queue: string, outcome: string, seconds: number): void;
  /** A TCP connection refused at a connection cap (total or per client). */
  connectionRefused(reason: 'total_cap' | 'client_cap'): void;
  zendeskCall(call: ZendeskCallObservation): void;
  incidentCall(call: IncidentCallObservation): void;
  tokenRefresh(outcome: TokenRefreshOutcome): void;
  /** A note or ticket change was written: from the event's receipt to now, and how many changes one write carried. */
  ticketWrite(changes: number, receivedAt: readonly (Date | null)[], writtenAt: Date): void;
  /** Reads queue depths on each scrape from `reader` (set once the queue exists). */
  watchQueues(reader: QueueDepthReader): void;
  /** Retention deleted `rows` expired rows of `table`. */
  retentionDeleted(table: string, rows: number): void;
  /** An account's app installation was read: installed, not yet installed, uninstalled, unknown. */
  installationChecked(result: string): void;
  /** Reads the accounts' ticket-write health on each scrape from `reader`. */
  watchTicketWrites(reader: TicketWriteHealthReader): void;
  /** This instance took something over from a dead instance. */
  takeover(kind: TakeoverKind): void;
}

/** `processMetrics`: also Node's own (memory, event loop lag, GC), when anyone can scrape them. */
export function createConnectorMetrics(options: { processMetrics: boolean }): ConnectorMetrics {
  const registry = new Registry();
  // Node's standard series under their standard names (process_*, nodejs_*), as dashboards expect.
  if (options.processMetrics) collectDefaultMetrics({ register: registry });

  const httpRequests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time to answer an HTTP request, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const webhookVerdicts = new Counter({
    name: `${PREFIX}webhook_deliveries_total`,
    help: 'Webhook deliveries by receiver and verdict (accepted, duplicate, or the refusal reason).',
    labelNames: ['receiver', 'verdict'] as const,
    registers: [registry],
  });
  const jobOutcomes = new Counter({
    name: `${PREFIX}jobs_total`,
    help: 'Jobs finished by queue and outcome (applied, skipped, failed_permanently, retried, deferred).',
    labelNames: ['queue', 'outcome'] as const,
    registers: [registry],
  });
  const jobDurations = new Histogram({
    name: `${PREFIX}job_duration_seconds`,
    help: 'Time of one run of a job, by queue and outcome (applied, skipped, failed_permanently, retried, deferred).',
    labelNames: ['queue', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const refusedConnections = new Counter({
    name: `${PREFIX}http_connections_refused_total`,
    help: 'TCP connections refused at a cap: total_cap (HTTP_MAX_CONNECTIONS) or client_cap (per client address).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const upstreamCalls = new Counter({
    name: `${PREFIX}upstream_requests_total`,
    help: 'Attempts of calls to Zendesk and the incident service, by endpoint and status; retry="true" when another attempt followed (429s, 5xx, a refreshed token).',
    labelNames: ['service', 'endpoint', 'method', 'status', 'retry'] as const,
    registers: [registry],
  });
  const upstreamDuration = new Histogram({
    name: `${PREFIX}upstream_request_duration_seconds`,
    help: 'Time of one attempt of a call to Zendesk or the incident service.',
    labelNames: ['service', 'endpoint'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const tokenRefreshes = new Counter({
    name: `${PREFIX}zendesk_token_refreshes_total`,
    help: 'Zendesk access token renewals by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const eventToNote = new Histogram({
    name: `${PREFIX}event_to_note_seconds`,
    help: 'From the receipt of an incident event to its change (note, status) being written on the ticket.',
    buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600],
    registers: [registry],
  });
  const changesPerWrite = new Histogram({
    name: `${PREFIX}ticket_write_changes`,
    help: "Ticket changes coalesced into one write (the writer's coalescing).",
    buckets: [1, 2, 3, 5, 10, 20, 50, 100],
    registers: [registry],
  });

  const retentionDeletedRows = new Counter({
    name: `${PREFIX}retention_deleted_rows_total`,
    help: 'Expired rows retention deleted, by table.',
    labelNames: ['table'] as const,
    registers: [registry],
  });
  const takeovers = new Counter({
    name: `${PREFIX}takeovers_total`,
    help: 'What this instance took over from dead instances, by kind (job: a job left running; ticket_writer: an account writer lease; changes_in_flight: the ticket changes a dead instance was sending).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });

  const installationChecks = new Counter({
    name: `${PREFIX}installation_checks_total`,
    help: 'Reads of an account’s app installations, by what they found (uninstalled disconnects it).',
    labelNames: ['result'] as const,
    registers: [registry],
  });

  let queues: QueueDepthReader | undefined;
  const queueJobs = new Gauge({
    name: `${PREFIX}queue_jobs`,
    help: 'Jobs per queue and state (queued, active, deferred), read at each scrape.',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      const depths = await readQueues();
      for (const depth of depths) {
        this.set({ queue: depth.queue, state: 'queued' }, depth.queued);
        this.set({ queue: depth.queue, state: 'active' }, depth.active);
        this.set({ queue: depth.queue, state: 'deferred' }, depth.deferred);
      }
    },
  });
  const oldestJobAge = new Gauge({
    name: `${PREFIX}queue_oldest_job_age_seconds`,
    help: 'Age of the oldest job waiting to run per queue (0 when none waits).',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      for (const depth of await readQueues())
        this.set({ queue: depth.queue }, depth.oldestAgeSeconds);
    },
  });
  void queueJobs;
  void oldestJobAge;

  let ticketWrites: TicketWriteHealthReader | undefined;
  const oldestWaiting = new Gauge({
    name: `${PREFIX}ticket_write_oldest_waiting_seconds`,
    help: 'Age of the oldest ticket change waiting to be written, across every account (0 when none waits).',
    registers: [registry],
    async collect() {
      if (ticketWrites) this.set((await ticketWrites.read()).oldestWaitingSeconds);
    },
  });
  const troubledAccounts = new Gauge({
    name: `${PREFIX}ticket_write_troubled_accounts`,
    help: 'Accounts whose ticket writes fail, by cause, or are late (cause="late": a change waits past TICKET_WRITE_LATE_SECONDS without an error).',
    labelNames: ['cause'] as const,
    registers: [registry],
    async collect() {
      if (!ticketWrites) return;
      for (const [cause, count] of Object.entries((await ticketWrites.read()).troubled))
        this.set({ cause }, count);
    },
  });
  const lateAccountWaiting = new Gauge({
    name: `${PREFIX}ticket_write_late_account_oldest_waiting_seconds`,
    help: `Age of the oldest waiting ticket change of each account past TICKET_WRITE_LATE_SECONDS, by Zendesk subdomain; the ${TROUBLED_SERIES_MAX} longest waiting only.`,
    labelNames: ['subdomain'] as const,
    registers: [registry],
    async collect() {
      // an account that caught up loses its series
      this.reset();
      if (!ticketWrites) return;
      const health = await ticketWrites.read();
      const late = health.accounts
        .filter((account) => (account.oldestWaitingSeconds ?? 0) > health.lateAfterSeconds)
        .sort((a, b) => (b.oldestWaitingSeconds ?? 0) - (a.oldestWaitingSeconds ?? 0))
        .slice(0, TROUBLED_SERIES_MAX);
      for (const account of late)
        this.set({ subdomain: account.subdomain }, account.oldestWaitingSeconds ?? 0);
    },
  });
  void oldestWaiting;
  void troubledAccounts;
  void lateAccountWaiting;

  // Both gauges are collected in one scrape: one read serves them.
  let pending: ReturnType<QueueDepthReader['read']> | undefined;
  function readQueues(): ReturnType<QueueDepthReader['read']> {
    if (!queues) return Promise.resolve([]);
    pending ??= queues.read().finally(() => {
      setImmediate(() => (pending = undefined));
    });
    return pending;
  }

  const upstream = (
    service: 'zendesk' | 'incident',
    endpoint: string,
    call: { method: string; status: number | string; retry: boolean; durationMs: number },
  ) => {
    const labels: LabelValues<'service' | 'endpoint' | 'method' | 'status' | 'retry'> = {
      service,
      endpoint,
      method: call.method,
      status: String(call.status),
      retry: String(call.retry),
    };
    upstreamCalls.inc(labels);
    upstreamDuration.observe({ service, endpoint }, call.durationMs / 1000);
  };

  return {
    registry,
    httpRequest(labels, seconds) {
      const values = { method: labels.method, route: labels.route, status: String(labels.status) };
      httpRequests.inc(values);
      httpDuration.observe(values, seconds);
    },
    webhookVerdict: (receiver, verdict) => webhookVerdicts.inc({ receiver, verdict }),
    jobOutcome: (queue, outcome) => jobOutcomes.inc({ queue, outcome }),
    jobDuration: (queue, outcome, seconds) => jobDurations.observe({ queue, outcome }, seconds),
    connectionRefused: (reason) => refusedConnections.inc({ reason }),
    zendeskCall: (call) => upstream('zendesk', call.endpoint, call),
    incidentCall: (call) => upstream('incident', call.operation, call),
    tokenRefresh: (outcome) => tokenRefreshes.inc({ outcome }),
    ticketWrite(changes, receivedAt, writtenAt) {
      changesPerWrite.observe(changes);
      for (const at of receivedAt) {
        if (at) eventToNote.observe(Math.max(0, (writtenAt.getTime() - at.getTime()) / 1000));
      }
    },
    watchQueues(reader) {
      queues = reader;
    },
    retentionDeleted: (table, rows) => retentionDeletedRows.inc({ table }, rows),
    installationChecked: (result) => installationChecks.inc({ result }),
    watchTicketWrites(reader) {
      ticketWrites = reader;
    },
    takeover: (kind) => takeovers.inc({ kind }),
  };
}

// The connector's Prometheus metrics (prom-client), one registry per connector so in-process
// instances (tests) keep their counts apart. Labels are bounded: routes as declared, endpoints
// with their ids replaced, reasons from the connector's own codes; never an account or a ticket.
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
export type TakeoverKind = 'ticket_writer' | 'changes_in_flight';

/** What the queue gauges read at each scrape (worker/queue-depths.ts). */
export interface QueueDepthReader {
  read(): Promise<
    { queue: string; queued: number; active: number; deferred: number; oldestAgeSeconds: number }[]
  >;
}

export interface ConnectorMetrics {
  readonly registry: Registry;
  httpRequest(labels: { method: string; route: string; status: number }, seconds: number): void;
  webhookVerdict(receiver: 'incident' | 'zendesk', verdict: string): void;
  jobOutcome(queue: string, outcome: string): void;
  zendeskCall(call: ZendeskCallObservation): void;
  incidentCall(call: IncidentCallObservation): void;
  tokenRefresh(outcome: TokenRefreshOutcome): void;
  /** A note or ticket change was written: from the event's receipt to now, and how many changes one write carried. */
  ticketWrite(changes: number, receivedAt: readonly (Date | null)[], writtenAt: Date): void;
  /** Reads queue depths on each scrape from `reader` (set once the queue exists). */
  watchQueues(reader: QueueDepthReader): void;
  /** This instance took something over from a dead instance. */
  takeover(kind: TakeoverKind): void;
}

/** `processMetrics`: also Node's own (memory, event loop lag, GC), when anyone can scrape them. */
export function createConnectorMetrics(options: { processMetrics: boolean }): ConnectorMetrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: PREFIX });

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
    help: 'Jobs finished by queue and outcome (done, skipped, failed_permanently, retried).',
    labelNames: ['queue', 'outcome'] as const,
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

  const takeovers = new Counter({
    name: `${PREFIX}takeovers_total`,
    help: 'What this instance took over from dead instances, by kind (ticket_writer: an account writer lease; changes_in_flight: the ticket changes a dead instance was sending).',
    labelNames: ['kind'] as const,
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
    takeover: (kind) => takeovers.inc({ kind }),
  };
}

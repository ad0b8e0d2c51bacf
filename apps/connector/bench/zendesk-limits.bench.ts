// Benchmark under Zendesk's real limits: the Zendesk sandbox enforces the
// Update Ticket limits (100 a minute per account, 30 updates per 10 minutes per user per ticket)
// and the job limit, as Zendesk does. One account, BENCH_LIMITS_TICKETS (200) linked tickets,
// incident events at BENCH_LIMITS_RATE (50) per second for BENCH_LIMITS_SECONDS (60): each status
// change with its history entry, then blocklist and takedown-attempt updates (takedown_updated);
// plus one more ticket that receives a burst of BENCH_LIMITS_BURST (300) events at once. On PGlite
// and PostgreSQL (BENCH_LIMITS_TARGETS).
//
// Reported: 429s the sandbox answered, Zendesk requests per applied event, notes per status change,
// event-to-note latency p50 / p99 beside the bound the limits imply, lost (neither noted nor
// settled without news: absorbed-changes.ts), doubled, and whether every Status field holds the
// newest status sent. The connector is the real one (src/main.ts)
// in a child process with production defaults; tickets are linked through real reports, with the
// Update Ticket limits lifted only while they are (the measured window runs under the real ones).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { signWebhook } from '@incident-desk/incident-api';
import {
  connectorDatabase,
  freePort,
  newSecretsKeys,
  startConnectorProcess,
  type ConnectorProcess,
} from '../test/support/connector-process';
import { statusOptionValue } from '../src/setup/status-field';
import { startProcessSandboxes } from '../test/support/process-sandboxes';
import { absorbedEventRefs } from './absorbed-changes';
import { postgresReachable } from './bench-database';
import { envList, envNumber } from './bench-env';
import { reportAndLink } from './linked-tickets';
import { noteAccounting, untilNoted, watchNotes } from './note-watch';
import { latencyFigures, runAtSteadyRate } from './steady-rate';

const rate = envNumber('BENCH_LIMITS_RATE', 50);
const seconds = envNumber('BENCH_LIMITS_SECONDS', 60);
const ticketCount = Math.round(envNumber('BENCH_LIMITS_TICKETS', 200));
const burstSize = Math.round(envNumber('BENCH_LIMITS_BURST', 300));
const targetNames = envList('BENCH_LIMITS_TARGETS', 'pglite,postgres');
process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/test';
const DRAIN_TIMEOUT_MS = 240_000;
const runId = randomBytes(3).toString('hex');
const startedAt = Date.now();

/** Zendesk's figures (the sandbox's defaults) and the connector's hold for companion events. */
const LIMITS = {
  /** Enterprise, the sandbox's default plan. */
  planPerMinute: 700,
  updateTicketPerMinute: 100,
  ticketUpdatesPer10Minutes: 30,
  writeHoldMs: 2_500,
};
/**
 * The latency the limits imply for a ticket that keeps receiving events: the hold, then at worst
 * the wait for the ticket's next allowed update once its budget is in steady use (10 minutes / 30).
 * update_many carries every waiting ticket in one request, so the account's 100 a minute does not
 * add to it.
 */
const IMPLIED_BOUND_MS = LIMITS.writeHoldMs + 600_000 / LIMITS.ticketUpdatesPer10Minutes;

const STATUS_CYCLE = [
  'case_building',
  'approval_required',
  'takedown_ready',
  'takedown_in_progress',
  'takedown_attempt_failed',
  'takedown_in_progress',
];

function log(message: string): void {
  console.error(`[limits bench +${((Date.now() - startedAt) / 1000).toFixed(1)}s] ${message}`);
}

interface SentEvent {
  id: string;
  sentAt: number;
  status?: number;
  ticketId: number;
  isStatus: boolean;
}

async function measureTarget(target: 'pglite' | 'postgres') {
  const dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-limits-bench-'));
  const sandboxes = await startProcessSandboxes();
  const database = connectorDatabase(target, dir, 'bench_limits');
  let connector: ConnectorProcess | undefined;
  try {
    connector = await startConnectorProcess({
      port: await freePort(),
      zendeskUrl: sandboxes.zendeskUrl,
      incidentUrl: sandboxes.incidentUrl,
      database,
      secretsKeys: newSecretsKeys(),
      jobTimeoutSeconds: 300,
      extraEnv: {
        WORKER_POLL_INTERVAL_SECONDS: '2',
        ...(process.env.BENCH_WORKER_CONCURRENCY
          ? { WORKER_CONCURRENCY: process.env.BENCH_WORKER_CONCURRENCY }
          : {}),
      },
      readyTimeoutMs: 120_000,
    });
    // linking is set-up, not the measurement: the Update Ticket limits are lifted while it runs
    await sandboxes.setLimits({
      update_ticket_per_minute: 100_000,
      ticket_updates_per_user: 100_000,
    });
    log(`${target}: reporting ${ticketCount + 1} tickets to link them`);
    const links = await reportAndLink(
      sandboxes,
      Array.from(
        { length: ticketCount + 1 },
        (_, i) => `https://login-${i}-${runId}.limits-${target}.test/signin`,
      ),
      600_000,
      1_000,
    );
    const burstLink = links.pop()!;
    await sandboxes.incidentDeliveriesIdle();
    await sandboxes.zendeskQuiet(3_000, 120_000);
    // the measured window starts with fresh windows: the plan's minute spent on linking is not its
    await sandboxes.setLimits({
      requests_per_minute: LIMITS.planPerMinute,
      update_ticket_per_minute: LIMITS.updateTicketPerMinute,
      ticket_updates_per_user: LIMITS.ticketUpdatesPer10Minutes,
    });
    await sandboxes.resetRateLimited();

    const subscription = sandboxes.incidentSandbox.store.state.webhooks.find(
      (w) => w.clientId === 'cl_demo_parent' && w.active,
    );
    if (!subscription) throw new Error('the demo registered no incident subscription');
    await sandboxes.resetApiRequests();
    const notesBefore = new Map<number, number>();
    for (const link of [...links, burstLink])
      notesBefore.set(link.ticketId, (await sandboxes.internalNotes(link.ticketId)).length);
    const notes = watchNotes(sandboxes.zendeskSandbox, 'demo');

    const sent: SentEvent[] = [];
    const newest = new Map<number, { at: number; status: string }>();
    let clock = Date.now();
    const send = async (
      link: { ticketId: number; incidentId: string },
      name: string,
      data: Record<string, unknown>,
    ) => {
      const id = `evt_lim_${target}_${runId}_${sent.length}`;
      clock = Math.max(clock + 1, Date.now());
      const at = clock;
      const timestamp = new Date(clock).toISOString();
      const body = JSON.stringify({
        id,
        event: name,
        timestamp,
        clientId: 'cl_demo_parent',
        data: { incidentId: link.incidentId, ...data },
      });
      const event: SentEvent = {
        id,
        sentAt: performance.now(),
        ticketId: link.ticketId,
        isStatus: name === 'incident.status_changed',
      };
      sent.push(event);
      try {
        const response = await fetch(subscription.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...signWebhook({ secret: subscription.secret, body }),
          },
          body,
        });
        await response.arrayBuffer();
        event.status = response.status;
        // the newest status the connector accepted (an unacknowledged event is the service's to resend)
        const previous = newest.get(link.ticketId);
        if (
          response.status === 200 &&
          name === 'incident.status_changed' &&
          (!previous || previous.at < at)
        )
          newest.set(link.ticketId, { at, status: data.status as string });
      } catch {
        event.status = 0;
      }
    };

    // the burst: 300 events on one ticket, at once, in the same mix
    const steps = new Map<number, number>();
    const nextEvent = (link: { ticketId: number; incidentId: string }, index: number) => {
      const step = steps.get(link.ticketId) ?? 0;
      const phase = index % 4;
      if (phase === 0) {
        steps.set(link.ticketId, step + 1);
        return [
          'incident.status_changed',
          { status: STATUS_CYCLE[step % STATUS_CYCLE.length]! },
        ] as const;
      }
      if (phase === 1)
        return [
          'incident.history_created',
          { historyEntry: { message: `Analyst note ${index}: the case moved on.` } },
        ] as const;
      return ['incident.takedown_updated', {}] as const;
    };
    log(
      `${target}: ${Math.round(seconds * rate)} events at ${rate}/s over ${ticketCount} tickets, and a burst of ${burstSize}`,
    );
    let burstIndex = 0;
    const burst = runAtSteadyRate(burstSize * 10, burstSize, async () => {
      const [name, data] = nextEvent(burstLink, burstIndex++);
      await send(burstLink, name, data);
    });
    // each ticket gets its events in groups of four (status, history, two takedown updates)
    const load = await runAtSteadyRate(rate, Math.round(seconds * rate), async (index) => {
      const group = Math.floor(index / 4);
      const link = links[group % links.length]!;
      const [name, data] = nextEvent(link, index);
      await send(link, name, data);
    });
    await burst;

    log(`${target}: waiting for every note`);
    const acknowledged = sent.filter((e) => e.status === 200);
    // what is missing is reported as lost
    await untilNoted(
      notes,
      acknowledged.map((e) => e.id),
      DRAIN_TIMEOUT_MS,
      500,
    );
    const calls = await sandboxes.zendeskQuiet(5_000, 120_000);
    const byEndpoint = (await sandboxes.apiRequests()).by_endpoint;
    const rateLimited = await sandboxes.rateLimited();
    notes.stop();

    let notesWritten = 0;
    let statusMismatches = 0;
    for (const link of [...links, burstLink]) {
      notesWritten +=
        (await sandboxes.internalNotes(link.ticketId)).length -
        (notesBefore.get(link.ticketId) ?? 0);
      const expected = newest.get(link.ticketId);
      if (!expected) continue;
      const value = sandboxes.fieldValue(
        await sandboxes.readTicket(link.ticketId),
        sandboxes.seed.statusFieldId,
      );
      if (value !== statusOptionValue(expected.status)) statusMismatches += 1;
    }
    // the embedded database is read once its connector has stopped
    if (!database.query) await connector.stop();
    const accounting = noteAccounting(
      notes,
      acknowledged.map((e) => e.id),
      await absorbedEventRefs(database, dir),
    );
    const applied = acknowledged.filter((e) => notes.visibleAt(e.id) !== undefined);
    const latency = (events: SentEvent[]) =>
      latencyFigures(
        events.map((e) => (notes.visibleAt(e.id) ?? Number.NaN) - e.sentAt).filter(Number.isFinite),
      );
    const steady = latency(applied.filter((e) => e.ticketId !== burstLink.ticketId));
    const statusChanges = acknowledged.filter((e) => e.isStatus).length;
    // where the time goes (PostgreSQL, whose rows the bench can read while the connector runs):
    // from receipt to the recorded change (the event queue), and from there to the write
    const lagRows = database.query
      ? ((await database.query(
          `SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM created_at - received_at) * 1000) AS queue,
                  percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM written_at - created_at) * 1000) AS writer
             FROM pending_ticket_change WHERE received_at IS NOT NULL AND written_at IS NOT NULL AND created_at >= $1`,
          [new Date(Date.now() - (performance.now() - sent[0]!.sentAt))],
        )) as { queue: number[]; writer: number[] }[])
      : [];
    const lagOf = (values: number[] | undefined) =>
      values ? { p50Ms: Math.round(values[0]!), p99Ms: Math.round(values[1]!) } : null;
    const figures = {
      lagBreakdown: { eventQueue: lagOf(lagRows[0]?.queue), writer: lagOf(lagRows[0]?.writer) },
      events: sent.length,
      acknowledged: acknowledged.length,
      applied: applied.length,
      absorbed: accounting.absorbed,
      lost: accounting.lost,
      lostIds: accounting.lostIds,
      doubled: accounting.doubled,
      loadGeneratorMaxLagMs: load.maxStartLagMs,
      zendesk429s: rateLimited,
      zendeskRequests: calls,
      zendeskRequestsByEndpoint: byEndpoint,
      zendeskRequestsPerAppliedEvent: applied.length
        ? Number((calls / applied.length).toFixed(3))
        : null,
      statusChanges,
      notesWritten,
      notesPerStatusChange: statusChanges
        ? Number((notesWritten / statusChanges).toFixed(3))
        : null,
      statusFieldsNewest: statusMismatches === 0,
      statusMismatches,
      latency: {
        steady,
        burst: latency(applied.filter((e) => e.ticketId === burstLink.ticketId)),
        impliedBoundMs: IMPLIED_BOUND_MS,
        p99WithinOneAndAHalfBounds: steady.p99Ms <= 1.5 * IMPLIED_BOUND_MS,
      },
    };
    log(
      `${target}: p50 ${steady.p50Ms} ms, p99 ${steady.p99Ms} ms (bound ${IMPLIED_BOUND_MS} ms), ${figures.zendeskRequestsPerAppliedEvent} requests per event, 429s ${rateLimited.total}`,
    );
    return figures;
  } finally {
    await connector?.stop().catch(() => undefined);
    await sandboxes.close();
    await database.drop().catch((error: unknown) => console.error('drop failed:', error));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const targets: Record<string, unknown> = {};
  const skipped: Record<string, string> = {};
  for (const name of targetNames) {
    if (name !== 'pglite' && name !== 'postgres')
      throw new Error(`unknown target ${name} in BENCH_LIMITS_TARGETS`);
    if (name === 'postgres') {
      const problem = await postgresReachable();
      if (problem) {
        skipped[name] = `PostgreSQL not reachable: ${problem}`;
        continue;
      }
    }
    targets[name] = await measureTarget(name);
  }
  console.log(
    JSON.stringify({
      scenario: { rate, seconds, tickets: ticketCount, burst: burstSize, limits: LIMITS },
      machine: { cpus: cpus().length, loadAverage: loadavg()[0] },
      targets,
      skipped,
    }),
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

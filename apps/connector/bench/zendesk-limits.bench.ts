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
// newest status sent, each against its goal (docs/benchmarks.md). The connector is the real one
// (src/main.ts) in a child process with production defaults; tickets are linked through real
// reports, with the Update Ticket limits lifted only while they are (the measured window runs
// under the real ones). An event not acknowledged within 5 s is sent again, as the service does
// (redelivery.ts), and counted. Waits follow progress (the connector's start, links, notes);
// exit 0 with a verdict, 2 when the run could not decide (undecided).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import {
  progress,
  runBenchmark,
  waitingFor,
  type BenchmarkRun,
} from '../../../scripts/bench-support';
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
import { whileChildWorks } from './child-progress';
import { benchControls, reportAndLink } from './linked-tickets';
import { noteAccounting, untilNoted, watchNotes } from './note-watch';
import { deliverAsTheService, missedDeliveries, signedPost } from './redelivery';
import { latencyFigures, runAtSteadyRate } from './steady-rate';
import { untilZendeskQuiet } from './zendesk-quiet';

const rate = envNumber('BENCH_LIMITS_RATE', 50);
const seconds = envNumber('BENCH_LIMITS_SECONDS', 60);
const ticketCount = Math.round(envNumber('BENCH_LIMITS_TICKETS', 200));
const burstSize = Math.round(envNumber('BENCH_LIMITS_BURST', 300));
const targetNames = envList('BENCH_LIMITS_TARGETS', 'pglite,postgres');
process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/test';
/** Notes are waited for while they keep landing: this long without a new one. */
const DRAIN_STALL_MS = 240_000;
/** Reported tickets are waited for while some keep getting linked: this long without a new one. */
const LINK_STALL_MS = 180_000;
const runId = randomBytes(3).toString('hex');

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

const log = progress.log;

interface SentEvent {
  id: string;
  sentAt: number;
  status?: number;
  missed?: string[];
  ticketId: number;
  isStatus: boolean;
}

function sendingLine(target: string, sent: readonly SentEvent[], total: number): string {
  const acked = sent.filter((e) => e.status === 200).length;
  const resent = sent.reduce((sum, e) => sum + (e.missed?.length ?? 0), 0);
  return `${target}: ${sent.length} of ${total} events sent, ${acked} acknowledged, ${resent} deliveries sent again`;
}

async function measureTarget(target: 'pglite' | 'postgres', run: BenchmarkRun) {
  const dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-limits-bench-'));
  const sandboxes = await startProcessSandboxes();
  const controls = benchControls(sandboxes);
  const database = connectorDatabase(target, dir, 'bench_limits');
  let eventsSoFar = () => ({});
  run.measured(target, () => ({ eventsSoFar: eventsSoFar() }));
  let connector: ConnectorProcess | undefined;
  try {
    run.stage(`${target}: starting the connector`);
    connector = await whileChildWorks(`${target}: starting the connector`, async () =>
      startConnectorProcess({
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
      }),
    );
    // linking is set-up, not the measurement: the Update Ticket limits are lifted while it runs
    await controls.setLimits({
      update_ticket_per_minute: 100_000,
      ticket_updates_per_user: 100_000,
    });
    run.stage(`${target}: linking tickets`);
    log(`${target}: reporting ${ticketCount + 1} tickets to link them`);
    const links = await reportAndLink(
      controls,
      Array.from(
        { length: ticketCount + 1 },
        (_, i) => `https://login-${i}-${runId}.limits-${target}.test/signin`,
      ),
      LINK_STALL_MS,
      1_000,
    );
    const burstLink = links.pop()!;
    await waitingFor(`${target}: the incident sandbox's deliveries`, () =>
      sandboxes.incidentDeliveriesIdle(),
    );
    await untilZendeskQuiet(controls, 3_000, `${target}: Zendesk calls after linking`);
    // the measured window starts with fresh windows: the plan's minute spent on linking is not its
    await controls.setLimits({
      requests_per_minute: LIMITS.planPerMinute,
      update_ticket_per_minute: LIMITS.updateTicketPerMinute,
      ticket_updates_per_user: LIMITS.ticketUpdatesPer10Minutes,
    });
    await controls.resetRateLimited();

    const subscription = sandboxes.incidentSandbox.store.state.webhooks.find(
      (w) => w.clientId === 'cl_demo_parent' && w.active,
    );
    if (!subscription) throw new Error('the demo registered no incident subscription');
    await controls.resetApiRequests();
    const notesBefore = new Map<number, number>();
    for (const link of [...links, burstLink])
      notesBefore.set(link.ticketId, (await controls.internalNotes(link.ticketId)).length);
    const notes = watchNotes(sandboxes.zendeskSandbox, 'demo');

    const sent: SentEvent[] = [];
    eventsSoFar = () => ({
      sent: sent.length,
      acknowledged: sent.filter((e) => e.status === 200).length,
      noted: sent.filter((e) => notes.visibleAt(e.id) !== undefined).length,
      ...missedDeliveries(sent.map((e) => ({ missed: e.missed ?? [] }))),
    });
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
      event.missed = [];
      const delivery = await deliverAsTheService(signedPost(subscription, body), {
        missed: event.missed,
      });
      event.status = delivery.status;
      // the newest status the connector accepted (an event never acknowledged is not applied)
      const previous = newest.get(link.ticketId);
      if (
        delivery.status === 200 &&
        name === 'incident.status_changed' &&
        (!previous || previous.at < at)
      )
        newest.set(link.ticketId, { at, status: data.status as string });
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
    run.stage(`${target}: sending events`);
    const total = Math.round(seconds * rate) + burstSize;
    const sending = progress.doing(() => sendingLine(target, sent, total));
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
    sending();

    run.stage(`${target}: waiting for the notes`);
    log(`${target}: waiting for every note`);
    const acknowledged = sent.filter((e) => e.status === 200);
    // what is missing is reported as lost
    await untilNoted(
      notes,
      acknowledged.map((e) => e.id),
      DRAIN_STALL_MS,
      500,
      `${target}: notes of the acknowledged events`,
    );
    const quiet = await untilZendeskQuiet(
      controls,
      5_000,
      `${target}: Zendesk calls after the notes`,
    );
    const calls = quiet.total;
    const byEndpoint = (await controls.apiRequests()).by_endpoint;
    const rateLimited = await controls.rateLimited();
    notes.stop();
    run.stage(`${target}: reading the figures`);

    let notesWritten = 0;
    let statusMismatches = 0;
    for (const link of [...links, burstLink]) {
      notesWritten +=
        (await controls.internalNotes(link.ticketId)).length -
        (notesBefore.get(link.ticketId) ?? 0);
      const expected = newest.get(link.ticketId);
      if (!expected) continue;
      const value = controls.fieldValue(
        await controls.readTicket(link.ticketId),
        controls.seed.statusFieldId,
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
      notAcknowledged: sent.length - acknowledged.length,
      ...missedDeliveries(sent.map((e) => ({ missed: e.missed ?? [] }))),
      applied: applied.length,
      absorbed: accounting.absorbed,
      lost: accounting.lost,
      lostIds: accounting.lostIds,
      doubled: accounting.doubled,
      loadGeneratorMaxLagMs: load.maxStartLagMs,
      zendesk429s: rateLimited,
      zendeskRequests: calls,
      zendeskRequestsSettled: quiet.settled,
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

type TargetFigures = Awaited<ReturnType<typeof measureTarget>>;

/** The goals docs/benchmarks.md gives this benchmark, per target. */
function goalsOf(name: string, t: TargetFigures) {
  const goal = (value: number | boolean | null, text: string, met: boolean) => ({
    value,
    goal: text,
    met,
  });
  const perEvent = t.zendeskRequestsPerAppliedEvent;
  return {
    [`${name}Zendesk429s`]: goal(t.zendesk429s.total, '0', t.zendesk429s.total === 0),
    [`${name}RequestsPerAppliedEvent`]: goal(
      perEvent,
      '< 0.2',
      perEvent !== null && perEvent < 0.2,
    ),
    [`${name}SteadyP99Ms`]: goal(
      t.latency.steady.p99Ms,
      `<= 1.5 x ${IMPLIED_BOUND_MS}`,
      t.latency.p99WithinOneAndAHalfBounds,
    ),
    [`${name}Lost`]: goal(t.lost, '0', t.lost === 0),
    [`${name}Doubled`]: goal(t.doubled, '0', t.doubled === 0),
    [`${name}StatusFieldsNewest`]: goal(t.statusFieldsNewest, 'all', t.statusFieldsNewest),
  };
}

async function measureTargets(run: BenchmarkRun) {
  const targets: Record<string, TargetFigures> = {};
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
    targets[name] = await measureTarget(name, run);
    run.measured(name, targets[name]);
  }
  return { targets, skipped };
}

const scenario = { rate, seconds, tickets: ticketCount, burst: burstSize, limits: LIMITS };

runBenchmark({
  label: 'limits bench',
  scenario,
  main: async (run) => {
    const { targets, skipped } = await measureTargets(run);
    if (Object.keys(targets).length === 0)
      run.undecided(`no target measured: ${JSON.stringify(skipped)}`);
    const goals = Object.assign(
      {},
      ...Object.entries(targets).map(([name, t]) => goalsOf(name, t)),
    ) as Record<string, { met: boolean }>;
    const unmet = Object.keys(goals).filter((name) => !goals[name]!.met);
    if (unmet.length > 0) console.log(`goals not met: ${unmet.join(', ')}`);
    return {
      verdict: unmet.length === 0 ? 'met' : 'not met',
      figures: {
        scenario,
        machine: { cpus: cpus().length, loadAverage: loadavg()[0] },
        targets,
        skipped,
        goals,
        goalsNotMet: unmet,
      },
    };
  },
});

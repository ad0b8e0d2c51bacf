// End-to-end benchmark: an incident event received by the connector -> its
// internal note visible in the Zendesk sandbox, at a steady rate (50 events per second) for a fixed
// window after a warm-up, on PGlite and on PostgreSQL (when reachable); and Zendesk API calls per
// applied event (goal: at most 1), counted by the Zendesk sandbox itself; and the connector's own
// CPU time (user and system, /proc) per applied event (goal on PostgreSQL: at most 5 ms).
//
// The connector is the real one (src/main.ts) in a child process with production defaults for the
// worker, set up by its demo against both sandboxes, which run in this process. Events are signed
// with the subscription's secret, as the incident service signs them, and sent open-loop. A note
// is "visible" when the sandbox commits it (its ticket-change hook). Same-run baseline: the
// sandbox's own note write (PUT /api/v2/tickets/{id}.json with an internal comment) at the same
// rate, so latencies also read as ratios.
//
// An event is delivered as the incident service delivers it: one not acknowledged within 5 s is
// sent again (redelivery.ts), and counted; its latency runs from its first sending. Waits follow
// progress: the connector starts for as long as it uses CPU time (child-progress.ts), tickets are
// waited for while they keep getting linked, notes while they keep landing. Exit 0 with a verdict,
// 1 when an acknowledged event was lost or doubled, 2 when the run could not decide (undecided).
//
// Environment: BENCH_E2E_RATE (50 per second), BENCH_E2E_SECONDS (20, measured),
// BENCH_E2E_WARMUP_SECONDS (5), BENCH_E2E_TICKETS (25 linked tickets the events spread over),
// BENCH_E2E_BASELINE_SECONDS (10), BENCH_E2E_TARGETS (pglite,postgres), DATABASE_URL
// (postgres://postgres@127.0.0.1:5432/test; a schema is created and dropped).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import {
  benchFetch,
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
import { startProcessSandboxes, type ProcessSandboxes } from '../test/support/process-sandboxes';
import { cpuMillis } from '../../../scripts/start/cpu-ticks';
import { postgresReachable } from './bench-database';
import { envList, envNumber } from './bench-env';
import { whileChildWorks } from './child-progress';
import { benchControls, reportAndLink, type SandboxControls } from './linked-tickets';
import { noteAccounting, untilNoted, watchNotes } from './note-watch';
import { deliverAsTheService, missedDeliveries, signedPost } from './redelivery';
import { latencyFigures, runAtSteadyRate } from './steady-rate';
import { untilZendeskQuiet } from './zendesk-quiet';

const rate = envNumber('BENCH_E2E_RATE', 50);
const seconds = envNumber('BENCH_E2E_SECONDS', 20);
const warmupSeconds = envNumber('BENCH_E2E_WARMUP_SECONDS', 5);
const ticketCount = Math.round(envNumber('BENCH_E2E_TICKETS', 25));
const baselineSeconds = envNumber('BENCH_E2E_BASELINE_SECONDS', 10);
const targetNames = envList('BENCH_E2E_TARGETS', 'pglite,postgres');
process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/test';
const GOAL_CALLS_PER_EVENT = 1;
/** Connector CPU per applied event on PostgreSQL (docs/benchmarks.md, cost per event). */
const GOAL_CPU_MS_PER_EVENT = 5;
/** Notes and links are waited for while they keep coming: this long without a new one. */
const STALL_MS = 90_000;
const runId = randomBytes(3).toString('hex');
const startedAt = Date.now();
const log = progress.log;

/** The sandbox's own internal-note write, at the same rate: the floor any connector sits on. */
async function measureBaseline(sandboxes: ProcessSandboxes, controls: SandboxControls) {
  const { seed } = sandboxes;
  const token = sandboxes.zendeskSandbox.issueToken('demo', seed.adminId, ['read', 'write']);
  const latencies: number[] = [];
  let failures = 0;
  // The baseline measures the sandbox's own write latency at the bench's rate, which is far above
  // Zendesk's Update Ticket limits (100 a minute, 30 per ticket per user per 10 minutes): lifted
  // for the baseline only, and set back to Zendesk's figures before the connector runs.
  await controls.setLimits({
    update_ticket_per_minute: 1_000_000,
    ticket_updates_per_user: 1_000_000,
  });
  await runAtSteadyRate(rate, Math.round(baselineSeconds * rate), async (index) => {
    const ticketId = seed.ticketIds[index % seed.ticketIds.length]!;
    const sent = performance.now();
    const response = await benchFetch(
      'zendesk api',
      `${sandboxes.zendeskUrl}/_z/demo/api/v2/tickets/${ticketId}.json`,
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          ticket: { comment: { body: `Baseline note ${index}`, public: false } },
        }),
      },
    );
    await response.arrayBuffer();
    if (response.ok) latencies.push(performance.now() - sent);
    else failures += 1;
  });
  await controls.setLimits({ update_ticket_per_minute: 100, ticket_updates_per_user: 30 });
  return { ...latencyFigures(latencies), failures };
}

interface SentEvent {
  id: string;
  sentAt: number;
  measured: boolean;
  /** From the first sending to the acknowledgement (or to the last delivery's end). */
  ackMs?: number;
  status?: number;
  missed?: string[];
}

/** Posts the signed event to the subscription as the service does, again until acknowledged. */
async function deliver(
  subscription: { url: string; secret: string },
  event: SentEvent,
  body: string,
): Promise<void> {
  event.missed = [];
  const delivery = await deliverAsTheService(signedPost(subscription, body), {
    missed: event.missed,
  });
  event.status = delivery.status;
  event.ackMs = delivery.answeredAt - event.sentAt;
}

function sendingLine(target: string, sent: readonly SentEvent[], total: number): string {
  const acked = sent.filter((e) => e.status === 200).length;
  const resent = sent.reduce((sum, e) => sum + (e.missed?.length ?? 0), 0);
  return `${target}: ${sent.length} of ${total} events sent, ${acked} acknowledged, ${resent} deliveries sent again`;
}

async function measureTarget(target: 'pglite' | 'postgres', run: BenchmarkRun) {
  const dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-e2e-bench-'));
  const sandboxes = await startProcessSandboxes({ requestsPerMinute: 1_000_000 });
  const controls = benchControls(sandboxes);
  const database = connectorDatabase(target, dir, 'bench_e2e');
  const soFar: Record<string, unknown> = {};
  let eventsSoFar = () => ({});
  run.measured(`connector-${target}`, () => ({ ...soFar, eventsSoFar: eventsSoFar() }));
  let connector: ConnectorProcess | undefined;
  try {
    run.stage(`${target}: baseline`);
    log(`${target}: baseline (sandbox note write) ${baselineSeconds} s at ${rate}/s`);
    const baseline = await measureBaseline(sandboxes, controls);
    soFar.baselineNoteWrite = baseline;

    run.stage(`${target}: starting the connector`);
    log(`${target}: starting the connector`);
    connector = await whileChildWorks(`${target}: starting the connector`, async () =>
      startConnectorProcess({
        port: await freePort(),
        zendeskUrl: sandboxes.zendeskUrl,
        incidentUrl: sandboxes.incidentUrl,
        database,
        secretsKeys: newSecretsKeys(),
        // production defaults: 2 s polling (LISTEN/NOTIFY wakes the worker sooner), 300 s job timeout
        jobTimeoutSeconds: 300,
        extraEnv: { WORKER_POLL_INTERVAL_SECONDS: '2' },
      }),
    );
    run.stage(`${target}: linking tickets`);
    log(`${target}: reporting ${ticketCount} tickets to link them`);
    const links = await reportAndLink(
      controls,
      Array.from(
        { length: ticketCount },
        (_, i) => `https://login-${i}-${runId}.e2e-${target}.test/signin`,
      ),
      STALL_MS,
    );
    await waitingFor(`${target}: the incident sandbox's deliveries`, () =>
      sandboxes.incidentDeliveriesIdle(),
    );
    await untilZendeskQuiet(controls, 3_000, `${target}: Zendesk calls after linking`);

    const subscription = sandboxes.incidentSandbox.store.state.webhooks.find(
      (w) => w.clientId === 'cl_demo_parent' && w.active,
    );
    if (!subscription) throw new Error('the demo registered no incident subscription');
    await controls.resetApiRequests();
    const notes = watchNotes(sandboxes.zendeskSandbox, 'demo');

    const warmupCount = Math.round(warmupSeconds * rate);
    const total = warmupCount + Math.round(seconds * rate);
    const sent: SentEvent[] = [];
    eventsSoFar = () => ({
      sent: sent.length,
      acknowledged: sent.filter((e) => e.status === 200).length,
      noted: sent.filter((e) => notes.visibleAt(e.id) !== undefined).length,
      ...missedDeliveries(sent.map((e) => ({ missed: e.missed ?? [] }))),
    });
    const cpuBefore = cpuMillis([connector.pid]);
    run.stage(`${target}: sending events`);
    const sending = progress.doing(() => sendingLine(target, sent, total));
    log(`${target}: ${total} events at ${rate}/s (${warmupCount} warm-up)`);
    const load = await runAtSteadyRate(rate, total, async (index) => {
      const link = links[index % links.length]!;
      const id = `evt_e2e_${target}_${runId}_${index}`;
      const statusEvent = index % 2 === 0;
      const body = JSON.stringify({
        id,
        event: statusEvent ? 'incident.status_changed' : 'incident.history_created',
        timestamp: new Date().toISOString(),
        clientId: 'cl_demo_parent',
        data: statusEvent
          ? {
              incidentId: link.incidentId,
              status: 'case_building',
              previousStatus: 'pending_review',
            }
          : {
              incidentId: link.incidentId,
              historyEntry: { message: `Analyst update ${index} on the case.` },
            },
      });
      const event: SentEvent = { id, sentAt: performance.now(), measured: index >= warmupCount };
      sent.push(event);
      await deliver(subscription, event, body);
    });
    sending();

    run.stage(`${target}: waiting for the notes`);
    log(`${target}: waiting for every note`);
    const acknowledged = sent.filter((e) => e.status === 200);
    // what is missing is reported as lost below
    await untilNoted(
      notes,
      acknowledged.map((e) => e.id),
      STALL_MS,
      250,
      `${target}: notes of the acknowledged events`,
    );
    const quiet = await untilZendeskQuiet(
      controls,
      3_000,
      `${target}: Zendesk calls after the notes`,
    );
    const calls = quiet.total;
    // the connector's own CPU time (user and system) from the first event to the last call
    const cpuMs = cpuMillis([connector.pid]) - cpuBefore;
    const byEndpoint = (await controls.apiRequests()).by_endpoint;
    notes.stop();

    const measured = acknowledged.filter((e) => e.measured);
    const endToEnd = measured
      .map((e) => (notes.visibleAt(e.id) ?? Number.NaN) - e.sentAt)
      .filter((ms) => Number.isFinite(ms));
    const accounting = noteAccounting(
      notes,
      acknowledged.map((e) => e.id),
    );
    const applied = accounting.applied;
    // Whether the connector kept up: notes per second from the first event sent to the last note,
    // and how long notes kept coming after the last event was sent (a backlog draining).
    const visibleTimes = acknowledged.map((e) => notes.visibleAt(e.id) ?? 0);
    const lastVisible = Math.max(0, ...visibleTimes);
    const firstSent = sent[0]?.sentAt ?? 0;
    const lastSent = sent.at(-1)?.sentAt ?? 0;
    const figures = {
      events: sent.length,
      acknowledged: acknowledged.length,
      notAcknowledged: sent.length - acknowledged.length,
      ...missedDeliveries(sent.map((e) => ({ missed: e.missed ?? [] }))),
      applied,
      lost: accounting.lost,
      duplicateNotes: accounting.doubled,
      measuredEvents: measured.length,
      loadGeneratorMaxLagMs: load.maxStartLagMs,
      appliedPerSecond: Number((applied / ((lastVisible - firstSent) / 1000 || 1)).toFixed(1)),
      drainSeconds: Number((Math.max(0, lastVisible - lastSent) / 1000).toFixed(1)),
      endToEnd: latencyFigures(endToEnd),
      acknowledgement: latencyFigures(measured.map((e) => e.ackMs ?? 0)),
      baselineNoteWrite: baseline,
      ratios: {
        p50: Number((latencyFigures(endToEnd).p50Ms / (baseline.p50Ms || 1)).toFixed(1)),
        p99: Number((latencyFigures(endToEnd).p99Ms / (baseline.p99Ms || 1)).toFixed(1)),
      },
      zendeskCalls: calls,
      zendeskCallsSettled: quiet.settled,
      zendeskCallsByEndpoint: byEndpoint,
      zendeskCallsPerAppliedEvent: applied ? Number((calls / applied).toFixed(3)) : null,
      connectorCpuMs: cpuMs,
      connectorCpuMsPerAppliedEvent: applied ? Number((cpuMs / applied).toFixed(2)) : null,
    };
    log(
      `${target}: p50 ${figures.endToEnd.p50Ms} ms, p99 ${figures.endToEnd.p99Ms} ms, ` +
        `${figures.zendeskCallsPerAppliedEvent} Zendesk calls and ` +
        `${figures.connectorCpuMsPerAppliedEvent} ms of connector CPU per event`,
    );
    return figures;
  } finally {
    await connector?.stop().catch(() => undefined);
    await sandboxes.close();
    await database.drop().catch((error: unknown) => console.error('drop failed:', error));
    rmSync(dir, { recursive: true, force: true });
  }
}

const scenario = { rate, seconds, warmupSeconds, tickets: ticketCount, baselineSeconds };

async function measureTargets(run: BenchmarkRun) {
  const targets: Record<string, Awaited<ReturnType<typeof measureTarget>>> = {};
  const skipped: Record<string, string> = {};
  for (const name of targetNames) {
    if (name !== 'pglite' && name !== 'postgres')
      throw new Error(`unknown target ${name} in BENCH_E2E_TARGETS`);
    if (name === 'postgres') {
      const problem = await postgresReachable();
      if (problem) {
        skipped[name] = `PostgreSQL not reachable: ${problem}`;
        log(skipped[name]);
        continue;
      }
    }
    targets[`connector-${name}`] = await measureTarget(name, run);
    run.measured(`connector-${name}`, targets[`connector-${name}`]);
  }
  return { targets, skipped };
}

runBenchmark({
  label: 'e2e bench',
  scenario,
  main: async (run) => {
    const loadAverageBefore = loadavg()[0]!;
    const { targets, skipped } = await measureTargets(run);
    if (Object.keys(targets).length === 0)
      run.undecided(`no target measured: ${JSON.stringify(skipped)}`);

    const goals: Record<string, { value: number | null; goal: string; met: boolean }> = {};
    const failures: string[] = [];
    for (const [name, t] of Object.entries(targets)) {
      goals[`${name}ZendeskCallsPerEvent`] = {
        value: t.zendeskCallsPerAppliedEvent,
        goal: `<= ${GOAL_CALLS_PER_EVENT}`,
        met:
          t.zendeskCallsPerAppliedEvent !== null &&
          t.zendeskCallsPerAppliedEvent <= GOAL_CALLS_PER_EVENT,
      };
      if (name === 'connector-postgres')
        goals[`${name}CpuMsPerEvent`] = {
          value: t.connectorCpuMsPerAppliedEvent,
          goal: `<= ${GOAL_CPU_MS_PER_EVENT}`,
          met:
            t.connectorCpuMsPerAppliedEvent !== null &&
            t.connectorCpuMsPerAppliedEvent <= GOAL_CPU_MS_PER_EVENT,
        };
      if (t.applied === 0) failures.push(`${name}: no event was applied`);
      if (t.lost > 0) failures.push(`${name}: ${t.lost} acknowledged events never became notes`);
      if (t.duplicateNotes > 0) failures.push(`${name}: ${t.duplicateNotes} events noted twice`);
    }

    console.log(
      `e2e: incident event -> internal note at ${rate}/s for ${seconds} s after ${warmupSeconds} s ` +
        `warm-up over ${ticketCount} tickets; ${cpus().length} CPUs, load average ` +
        `${loadAverageBefore.toFixed(1)} at start`,
    );
    for (const [name, t] of Object.entries(targets)) {
      console.log(
        `${name}: e2e p50 ${t.endToEnd.p50Ms} ms, p99 ${t.endToEnd.p99Ms} ms (max ${t.endToEnd.maxMs}); ` +
          `baseline note write p50 ${t.baselineNoteWrite.p50Ms} ms, p99 ${t.baselineNoteWrite.p99Ms} ms ` +
          `(ratios ${t.ratios.p50}x / ${t.ratios.p99}x); ack p99 ${t.acknowledgement.p99Ms} ms; ` +
          `${t.deliveriesNotAcknowledged} deliveries not acknowledged within 5 s (sent again), ` +
          `${t.notAcknowledged} events never acknowledged; ` +
          `${t.appliedPerSecond} notes/s, ${t.drainSeconds} s to drain after the last event; ` +
          `${t.zendeskCalls} Zendesk calls for ${t.applied} events = ${t.zendeskCallsPerAppliedEvent} per event; ` +
          `connector CPU ${t.connectorCpuMs} ms = ${t.connectorCpuMsPerAppliedEvent} ms per event`,
      );
    }
    for (const [name, reason] of Object.entries(skipped))
      console.log(`${name}: skipped (${reason})`);
    if (failures.length > 0) console.log(`FAILED: ${failures.join('; ')}`);
    const met = failures.length === 0 && Object.values(goals).every((g) => g.met);
    return {
      verdict: met ? 'met' : 'not met',
      exitCode: failures.length > 0 ? 1 : 0,
      figures: {
        rate,
        seconds,
        warmupSeconds,
        tickets: ticketCount,
        cpus: cpus().length,
        loadAverage1m: { start: loadAverageBefore, end: loadavg()[0] },
        wallSeconds: Number(((Date.now() - startedAt) / 1000).toFixed(1)),
        targets,
        skipped,
        goals,
        failures,
      },
    };
  },
});

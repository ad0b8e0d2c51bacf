// Throughput benchmark: what one applied incident event costs the connector, and how much load it
// carries before its notes fall behind, step by step on a rising open-loop rate.
//
// BENCH_THROUGHPUT_ACCOUNTS (100) accounts are installed in the Zendesk sandbox, each with its own
// incident client, through the connector's own install path (install-accounts.ts), and
// BENCH_THROUGHPUT_TICKETS (10) tickets of each are linked by real reports, all accounts' reports
// at once. Then steps of BENCH_THROUGHPUT_STEPS (25,50,100,200) events per second, each for
// BENCH_THROUGHPUT_SECONDS (60), open-loop (steady-rate.ts), signed and sent to each account's
// subscription, spread over every linked ticket in groups of four per ticket: a status change
// followed by its history entry, a takedown update (a snapshot is added to the incident through
// the incident sandbox's control API first, so the connector reads news), and an analyst's comment
// (a history entry whose author is an analyst). Each step is drained before the next one starts:
// its notes are waited for while they keep landing (note-watch.ts), and what has none once nothing
// waits in the connector was settled without one (absorbed-changes.ts) or lost.
//
// Reported per target and step: the connector's CPU time per applied event (utime + stime of the
// connector processes, /proc/<pid>/stat, from the step's start to the end of its drain; neither
// PostgreSQL nor the sandboxes; also less what the instances use at rest, read for
// BENCH_THROUGHPUT_REST_SECONDS, 30, before the first step), database statements per applied
// event (each instance's incident_desk_database_statements_total on /metrics), requests to each
// sandbox per applied event (the Zendesk sandbox's per-account count and the incident sandbox's
// /_sandbox/api-requests), event-to-note latency p50 / p99 and its split by stage (ingest: sent ->
// acknowledged; event job: acknowledged -> the change recorded, pending_ticket_change.created_at;
// writer: recorded -> note visible), notes per applied event, Zendesk 429s, lost and doubled
// (every acknowledged event's note exactly once, absorbed takedown updates aside), deliveries sent
// again (redelivery.ts), the load generator's lag; and per target the highest step whose p99
// event-to-note stays under 10 s.
// Goals (docs/benchmarks.md), reported, not enforced: on PostgreSQL at most 5 ms of connector CPU
// per applied event at every step up to 100/s and the 100/s step's p99 under 10 s (the largest
// step below 100/s when the run has none); no event lost or doubled. Exit 0 with the verdict (met
// or not met), 2 when the run could not decide (undecided).
//
// Targets (BENCH_THROUGHPUT_TARGETS, postgres,pglite): PostgreSQL (DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/test; a fresh schema, dropped afterwards) with two instances
// (src/main.ts child processes, the build under REUSE_BUILD=1) behind one address, and PGlite
// with one. Production settings for the worker (2 s polling, 300 s job timeout); Zendesk's limits
// as the sandbox enforces them. BENCH_THROUGHPUT_SCALE=quick sets small defaults for development
// (10 accounts x 3 tickets, steps 10,20 of 10 s). `--cpu-prof` (or BENCH_THROUGHPUT_CPU_PROF=1)
// restarts the instances with --cpu-prof for one step (100/s, or the largest), stops them after its
// drain (SIGTERM: the profile is written at exit) and names the files (bench-results/profiles;
// scripts/cpu-profile-summary.ts reads them); the profiled step's figures carry the profiler's
// overhead. Waits follow progress: an instance starts for as long as it uses CPU time
// (child-progress.ts), links and notes are waited for while they keep coming (notes until none
// landed for BENCH_THROUGHPUT_DRAIN_SECONDS, 240), and the whole run stops, cleaning up its
// processes and schema, after BENCH_THROUGHPUT_TIME_LIMIT_SECONDS (7200), printing what it
// measured by then.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  benchFetch,
  progress,
  runBenchmark,
  waitingFor,
  whileProgressing,
  type BenchmarkRun,
} from '../../../scripts/bench-support';
import { cpuMillis } from '../../../scripts/start/cpu-ticks';
import type { ConnectorProcess } from '../test/support/connector-process';
import type { Backend } from '../test/support/test-database';
import { absorbedEventRefs, connectorRows } from './absorbed-changes';
import { measureEachTarget } from './bench-targets';
import { envList, envNumber } from './bench-env';
import type { CleanupStack } from './cleanup-stack';
import { startConnectorFleet } from './connector-fleet';
import { collectLinks, type SandboxControls } from './linked-tickets';
import { noteAccounting, watchNotes, type NoteWatch } from './note-watch';
import { missedDeliveries } from './redelivery';
import { latencyFigures, runAtSteadyRate } from './steady-rate';
import {
  acknowledged,
  createEventSender,
  statusOf,
  type EventTenant,
  type SentEvent,
  type TicketEvent,
} from './tenant-events';

const quick = process.env.BENCH_THROUGHPUT_SCALE === 'quick';
const accountCount = Math.round(envNumber('BENCH_THROUGHPUT_ACCOUNTS', quick ? 10 : 100));
const ticketsPerAccount = Math.round(envNumber('BENCH_THROUGHPUT_TICKETS', quick ? 3 : 10));
const steps = envList('BENCH_THROUGHPUT_STEPS', quick ? '10,20' : '25,50,100,200').map((step) => {
  const rate = Number(step);
  if (!Number.isFinite(rate) || rate <= 0)
    throw new Error('BENCH_THROUGHPUT_STEPS must be positive numbers, e.g. 25,50,100,200');
  return rate;
});
const stepSeconds = envNumber('BENCH_THROUGHPUT_SECONDS', quick ? 10 : 60);
const drainMs = envNumber('BENCH_THROUGHPUT_DRAIN_SECONDS', 240) * 1000;
const restMs = envNumber('BENCH_THROUGHPUT_REST_SECONDS', quick ? 10 : 30) * 1000;
const timeLimitMs = envNumber('BENCH_THROUGHPUT_TIME_LIMIT_SECONDS', 7200) * 1000;
const targetNames = envList('BENCH_THROUGHPUT_TARGETS', 'postgres,pglite');
const cpuProfile =
  process.argv.includes('--cpu-prof') || process.env.BENCH_THROUGHPUT_CPU_PROF === '1';
process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/test';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PROFILE_DIR = path.join(repoRoot, 'bench-results', 'profiles');
const GOALS = {
  /** Connector CPU per applied event on PostgreSQL, at every step up to `cpuUpToRate`. */
  cpuMsPerEvent: 5,
  cpuUpToRate: 100,
  /** Event-to-note p99 of the step at `p99AtRate` (or the largest below it) on PostgreSQL. */
  p99Ms: 10_000,
  p99AtRate: 100,
};
/** The step a --cpu-prof run profiles. */
const profiledRate = steps.includes(GOALS.p99AtRate) ? GOALS.p99AtRate : Math.max(...steps);
/** Reported tickets are waited for while some keep getting linked: this long without a new one. */
const LINK_STALL_MS = 180_000;
/** Notes missing this long after the last one landed: whether anything still waits is read. */
const SETTLED_AFTER_MS = 5_000;
/** Between two readings of the instances' queues while a step's last events may be absorbed. */
const IDLE_CHECK_EVERY_MS = 2_000;
/** Events of one ticket in a row: status change, its history entry, takedown update, comment. */
const GROUP = 4;

const runId = randomBytes(3).toString('hex');
const startedAt = Date.now();
const log = progress.log;

const seconds1 = (ms: number) => Number((ms / 1000).toFixed(1));
const perEvent = (value: number | null, applied: number, digits = 2) =>
  value === null || applied === 0 ? null : Number((value / applied).toFixed(digits));

/** A Prometheus counter's value in a scrape (the sum of its series), or null when absent. */
function counterOf(scrape: string, name: string): number | null {
  let total: number | null = null;
  for (const line of scrape.split('\n')) {
    if (!line.startsWith(`${name} `) && !line.startsWith(`${name}{`)) continue;
    total = (total ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** Counts by endpoint, those of `after` less those of `before`, the unchanged left out. */
function endpointDelta(before: Record<string, number>, after: Record<string, number>) {
  const delta: Record<string, number> = {};
  for (const [endpoint, count] of Object.entries(after)) {
    const moved = count - (before[endpoint] ?? 0);
    if (moved !== 0) delta[endpoint] = moved;
  }
  return delta;
}

function addCounts(into: Record<string, number>, counts: Record<string, number>): void {
  for (const [key, count] of Object.entries(counts)) into[key] = (into[key] ?? 0) + count;
}

interface Counters {
  cpuMs: number;
  /** performance.now() when the CPU time was read. */
  readAt: number;
  /** Null when an instance's /metrics could not be read. */
  statements: number | null;
  zendeskRequests: number;
  zendeskByEndpoint: Record<string, number>;
  zendesk429s: number;
  incidentRequests: number;
  incidentByEndpoint: Record<string, number>;
  notesWritten: number;
}

/** What a step measured while it ran; the rest is read from the events once the target ends. */
interface StepRun {
  rate: number;
  phase: string;
  loadGeneratorMaxLagMs: number;
  drained: boolean;
  drainSeconds: number;
  wallSeconds: number;
  before: Counters;
  after: Counters;
  cpuProfiled: boolean;
}

/** The event a ticket's group sends at `position`, for the ticket's `round`-th group. */
function groupEvent(position: number, round: number, eventNumber: number): TicketEvent {
  const status = statusOf(round);
  switch (position) {
    case 0:
      return { event: 'incident.status_changed', data: { status } };
    case 1:
      return {
        event: 'incident.history_created',
        data: {
          historyEntry: {
            message: `Status moved to ${status.replace(/_/g, ' ')} (review ${round + 1}).`,
          },
        },
      };
    case 2:
      return { event: 'incident.takedown_updated', data: {} };
    default:
      return {
        event: 'incident.history_created',
        data: {
          historyEntry: {
            message: `Analyst comment ${eventNumber}: the registrar acknowledged the report.`,
            author: { type: 'analyst', name: 'Bench Analyst' },
          },
        },
      };
  }
}

/** The connector's /healthz queues all empty (the ticket writer's backlog included). */
async function queuesIdleNow(instances: readonly ConnectorProcess[]): Promise<boolean> {
  for (const instance of instances) {
    const response = await benchFetch('connector healthz', `${instance.url}/healthz`, {
      headers: { authorization: `Bearer ${instance.metricsToken}` },
    });
    const report = (await response.json()) as {
      queues?: Record<string, { queued?: number; active?: number; deferred?: number }>;
    };
    const queues = Object.values(report.queues ?? {});
    if (queues.length === 0) return false;
    if (queues.some((q) => (q.queued ?? 1) + (q.active ?? 1) + (q.deferred ?? 1) > 0)) return false;
  }
  return true;
}

/** The instance's incident_desk_database_statements_total, or null when unreadable. */
async function statementsOf(instance: ConnectorProcess): Promise<number | null> {
  try {
    const response = await benchFetch('connector metrics', `${instance.url}/metrics`, {
      headers: { authorization: `Bearer ${instance.metricsToken}` },
    });
    if (!response.ok) return null;
    return counterOf(await response.text(), 'incident_desk_database_statements_total');
  } catch {
    return null;
  }
}

/** The profiles a process wrote at its exit (--cpu-prof names them after its pid). */
function profilesOf(pid: number): string[] {
  try {
    return readdirSync(PROFILE_DIR)
      .filter((file) => file.endsWith('.cpuprofile') && file.split('.').includes(String(pid)))
      .map((file) => path.join(PROFILE_DIR, file));
  } catch {
    return [];
  }
}

async function measureTarget(target: Backend, cleanups: CleanupStack, run: BenchmarkRun) {
  /** What each stage measured, as it ends, and the steps so far: an undecided run prints them. */
  const soFar: Record<string, unknown> = {};
  const stepRuns: StepRun[] = [];
  run.measured(target, () => ({ ...soFar, stepsSoFar: stepRuns }));
  const fleet = await startConnectorFleet({ name: 'throughput', target, runId, cleanups });
  const { dir, sandboxes, database, instances, controlsOf } = fleet;
  const labels = target === 'postgres' ? ['instance-1', 'instance-2'] : ['instance-1'];
  /** Starts every instance (profiled: under --cpu-prof) and routes the proxy to them. */
  const startInstances = async (profiled = false) => {
    for (const label of labels)
      await fleet.startInstance(label, profiled ? { profileDir: PROFILE_DIR } : {});
    fleet.route();
  };

  // --- accounts, instances, links
  const subdomains = Array.from(
    { length: accountCount },
    (_, i) => `tenant-${String(i + 1).padStart(3, '0')}`,
  );
  run.stage(`${target}: installing accounts`);
  log(`${target}: installing ${subdomains.length} accounts`);
  const installStarted = performance.now();
  const accounts = await fleet.install(subdomains);
  const installMs = performance.now() - installStarted;
  soFar.install = { accounts: accounts.length, installSeconds: seconds1(installMs) };

  run.stage(`${target}: starting instances`);
  log(`${target}: ${accounts.length} accounts installed; starting ${labels.length} instance(s)`);
  await startInstances();
  const sampler = await fleet.sampleResources();
  const anyControls: SandboxControls = controlsOf(accounts[0]!.subdomain);

  const reportCount = accounts.length * ticketsPerAccount;
  run.stage(`${target}: linking reported tickets`);
  log(`${target}: reporting ${reportCount} tickets of ${accounts.length} accounts at once`);
  const linkStarted = performance.now();
  let opened = 0;
  const restore = progress.doing(
    () => `${target}: opening tickets to report, ${opened} of ${reportCount}`,
  );
  // every account's reports at once, each account's tickets one after another
  const reported = await Promise.all(
    accounts.map(async (account) => {
      const ticketIds: number[] = [];
      for (let i = 0; i < ticketsPerAccount; i += 1) {
        ticketIds.push(
          await controlsOf(account.subdomain).createTicket({
            threat: `https://login-${i}-${runId}.${account.subdomain}.throughput-${target}.test/signin`,
          }),
        );
        opened += 1;
      }
      return ticketIds.map((ticketId) => ({
        subdomain: account.subdomain,
        controls: controlsOf(account.subdomain),
        ticketId,
      }));
    }),
  );
  restore();
  const tickets = reported.flat();
  const links = await collectLinks('reported tickets linked', tickets, LINK_STALL_MS);
  const linkMs = performance.now() - linkStarted;
  const tenants: EventTenant[] = accounts.map((account) => ({
    subdomain: account.subdomain,
    incidentClientId: account.incidentClientId,
    links: links.filter(
      (link, index): link is NonNullable<typeof link> =>
        link !== undefined && tickets[index]!.subdomain === account.subdomain,
    ),
  }));
  const unlinkedReports = links.filter((link) => link === undefined).length;
  soFar.link = {
    linkedTickets: reportCount - unlinkedReports,
    unlinkedReports,
    linkSeconds: seconds1(linkMs),
  };
  if (unlinkedReports > 0)
    log(
      `${target}: ${unlinkedReports} reports not linked (none newly linked for ${LINK_STALL_MS / 1000} s)`,
    );
  // the events go round the tickets: the n-th ticket of every account, then the next ones
  const slots = Array.from({ length: ticketsPerAccount }, (_, t) =>
    tenants.flatMap((tenant) => (tenant.links[t] ? [{ tenant, link: tenant.links[t] }] : [])),
  ).flat();
  if (slots.length === 0) throw new Error('no reported ticket was linked');
  await waitingFor(`${target}: the incident sandbox's deliveries`, () =>
    sandboxes.incidentDeliveriesIdle(),
  );
  await waitingFor(`${target}: the connector's queues idle`, fleet.queuesIdle);

  const notes = watchNotes(sandboxes.zendeskSandbox, subdomains);
  cleanups.push('note watch', async () => notes.stop());
  const sender = createEventSender(sandboxes.deliverIncidentEvent, runId, 'evt_thr');
  const eventsOf = (phase: string) => sender.sent.filter((e) => e.phase === phase);

  /** Internal notes on the linked tickets, read in the sandbox's state (this process). */
  const notesWritten = () => {
    let count = 0;
    for (const { tenant, link } of slots) {
      const comments =
        sandboxes.zendeskSandbox.state.account(tenant.subdomain)?.comments.get(link.ticketId) ?? [];
      for (const comment of comments) if (!comment.public) count += 1;
    }
    return count;
  };
  /** Each counter a step reads before and after itself; CPU first, before any scrape's cost. */
  const readCounters = async (): Promise<Counters> => {
    const live = [...instances.values()];
    const cpuMs = cpuMillis(live.map((instance) => instance.pid));
    const readAt = performance.now();
    const statements = await Promise.all(live.map(statementsOf));
    let zendeskRequests = 0;
    let zendesk429s = 0;
    const zendeskByEndpoint: Record<string, number> = {};
    for (const account of accounts) {
      const requests = await controlsOf(account.subdomain).apiRequests();
      zendeskRequests += requests.total;
      addCounts(zendeskByEndpoint, requests.by_endpoint);
      zendesk429s += (await controlsOf(account.subdomain).rateLimited()).total;
    }
    const incident = await anyControls.incidentApiRequests();
    return {
      cpuMs,
      readAt,
      statements: statements.some((s) => s === null)
        ? null
        : statements.reduce<number>((sum, s) => sum + s!, 0),
      zendeskRequests,
      zendeskByEndpoint,
      zendesk429s,
      incidentRequests: incident.total,
      incidentByEndpoint: incident.by_endpoint,
      notesWritten: notesWritten(),
    };
  };

  /** A snapshot on the incident before its takedown update: the update has news to read. */
  const addSnapshot = async (incidentId: string, eventNumber: number) => {
    const response = await benchFetch(
      'sandbox control',
      `${sandboxes.incidentUrl}/_sandbox/incidents/${encodeURIComponent(incidentId)}/snapshots`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ description: `Bench capture ${eventNumber}` }),
      },
    );
    if (!response.ok)
      throw new Error(`snapshot of ${incidentId}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };

  /** The step's notes, waited for while they keep landing (false: none landed for drainMs). */
  const drain = async (phase: string) => {
    const ids = acknowledged(eventsOf(phase)).map((e) => e.id);
    let noted = -1;
    let movedAt = Date.now();
    let idleReadAt = 0;
    let idleReadings = 0;
    return whileProgressing({
      what: `${target}: step ${phase}'s notes`,
      stallMs: drainMs,
      intervalMs: 250,
      probe: async () => {
        const count = ids.filter((id) => notes.visibleAt(id) !== undefined).length;
        if (count !== noted) {
          noted = count;
          movedAt = Date.now();
          idleReadings = 0;
        }
        if (count === ids.length) return { done: true, count, of: ids.length };
        // what has no note yet may have been settled without one (a takedown update without
        // news): once none landed for a while, the step is over when nothing waits in the
        // connector, on two readings apart
        if (
          Date.now() - movedAt >= SETTLED_AFTER_MS &&
          Date.now() - idleReadAt >= IDLE_CHECK_EVERY_MS
        ) {
          idleReadAt = Date.now();
          idleReadings = (await queuesIdleNow([...instances.values()])) ? idleReadings + 1 : 0;
        }
        return { done: idleReadings >= 2, count, of: ids.length };
      },
    });
  };

  /** The instances' CPU time at rest (pg-boss's maintenance, polling): the floor of every step. */
  const cpuAtRest = async () => {
    const live = [...instances.values()];
    const cpuMs = () => cpuMillis(live.map((instance) => instance.pid));
    const since = performance.now();
    const leave = progress.doing(
      () =>
        `${target}: the instances' CPU time at rest, ${Math.round((performance.now() - since) / 1000)} of ${restMs / 1000} s`,
    );
    const before = cpuMs();
    await new Promise((resolve) => setTimeout(resolve, restMs));
    leave();
    const ms = cpuMs() - before;
    return Number((ms / ((performance.now() - since) / 1000)).toFixed(1));
  };
  run.stage(`${target}: the instances at rest`);
  const restCpuMsPerSecond = await cpuAtRest();
  soFar.restCpuMsPerSecond = restCpuMsPerSecond;
  log(`${target}: the instances at rest use ${restCpuMsPerSecond} ms of CPU a second`);

  const profiles: string[] = [];
  let eventNumber = 0;
  for (const [stepIndex, rate] of steps.entries()) {
    const phase = `${rate}/s`;
    const profiled = cpuProfile && rate === profiledRate && !stepRuns.some((s) => s.cpuProfiled);
    if (profiled) {
      run.stage(`${target}: restarting the instances under --cpu-prof`);
      log(`${target}: restarting the instances under --cpu-prof for step ${phase}`);
      mkdirSync(PROFILE_DIR, { recursive: true });
      await fleet.stopAll();
      await startInstances(true);
      await waitingFor(`${target}: the connector's queues idle`, fleet.queuesIdle);
    }
    run.stage(`${target}: step ${phase}`);
    const count = Math.round(rate * stepSeconds);
    log(
      `${target}: step ${stepIndex + 1} of ${steps.length}, ${count} events at ${phase} over ${slots.length} tickets`,
    );
    const leave = progress.doing(() => {
      const events = eventsOf(phase);
      const acked = acknowledged(events);
      const resent = events.reduce((sum, e) => sum + (e.missed?.length ?? 0), 0);
      const noted = acked.filter((e) => notes.visibleAt(e.id) !== undefined).length;
      return `${target}: step ${phase}, ${events.length} of ${count} events sent, ${acked.length} acknowledged, ${resent} deliveries sent again, ${noted} noted`;
    });
    const before = await readCounters();
    const stepStarted = performance.now();
    const load = await runAtSteadyRate(rate, count, async (index) => {
      const number = eventNumber + index;
      const group = Math.floor(number / GROUP);
      const { tenant, link } = slots[group % slots.length]!;
      const position = number % GROUP;
      if (position === 2) await addSnapshot(link.incidentId, number);
      await sender.sendEvent(
        tenant,
        link,
        phase,
        groupEvent(position, Math.floor(group / slots.length), number),
      );
    });
    eventNumber += count;
    const loadEnded = performance.now();
    const drained = await drain(phase);
    if (!drained)
      log(`${target}: step ${phase}: notes still missing, none landed for ${drainMs / 1000} s`);
    const after = await readCounters();
    leave();
    stepRuns.push({
      rate,
      phase,
      loadGeneratorMaxLagMs: load.maxStartLagMs,
      drained,
      drainSeconds: seconds1(performance.now() - loadEnded),
      wallSeconds: seconds1(performance.now() - stepStarted),
      before,
      after,
      cpuProfiled: profiled,
    });
    const cpuMs = after.cpuMs - before.cpuMs;
    const noted = acknowledged(eventsOf(phase)).filter(
      (e) => notes.visibleAt(e.id) !== undefined,
    ).length;
    log(
      `${target}: step ${phase} done: ${noted} of ${count} events noted, ${perEvent(cpuMs, noted)} ms of connector CPU per noted event, drained in ${seconds1(performance.now() - loadEnded)} s`,
    );
    if (profiled) {
      run.stage(`${target}: stopping the profiled instances`);
      const stopped = await fleet.stopAll();
      for (const instance of stopped) {
        const exit = await instance.exited;
        const written = profilesOf(instance.pid);
        if (written.length === 0)
          log(
            `${target}: no profile from ${instance.pid} (exit ${exit.code ?? exit.signal}); --cpu-prof writes it only on a clean exit`,
          );
        profiles.push(...written);
      }
      log(
        `${target}: CPU profiles of step ${phase}: ${profiles.map((file) => path.relative(repoRoot, file)).join(', ') || 'none'}`,
      );
      if (stepIndex < steps.length - 1) {
        run.stage(`${target}: starting instances`);
        await startInstances();
        await waitingFor(`${target}: the connector's queues idle`, fleet.queuesIdle);
      }
    }
  }

  // --- the figures: what the database recorded (the embedded one once its instance stopped)
  run.stage(`${target}: reading the figures`);
  const resources = await sampler.stop();
  notes.stop();
  if (!database.query) await fleet.stopAll();
  const absorbed = await absorbedEventRefs(database, dir);
  const recorded = new Map(
    (
      await connectorRows<{ eventRef: string; recordedAt: Date | string }>(
        database,
        dir,
        `SELECT event_ref AS "eventRef", min(created_at) AS "recordedAt"
           FROM pending_ticket_change WHERE event_ref LIKE $1 GROUP BY event_ref`,
        [`evt_thr_${runId}_%`],
      )
    ).map((row) => [
      row.eventRef,
      new Date(row.recordedAt).getTime() - performance.timeOrigin, // as performance.now() reads it
    ]),
  );
  const stepFigures = stepRuns.map((step) =>
    figuresOfStep(step, eventsOf(step.phase), notes, absorbed, recorded, restCpuMsPerSecond),
  );
  const allAcked = acknowledged(sender.sent).map((e) => e.id);
  const all = noteAccounting(notes, allAcked, absorbed);
  const sustained = stepFigures.filter(
    (step) => step.applied > 0 && step.latency.p99Ms < GOALS.p99Ms,
  );
  return {
    accounts: accounts.length,
    instances: labels.length,
    linkedTickets: slots.length,
    unlinkedReports,
    installSeconds: seconds1(installMs),
    linkSeconds: seconds1(linkMs),
    restCpuMsPerSecond,
    steps: stepFigures,
    highestRateP99Under10s: sustained.length ? Math.max(...sustained.map((s) => s.rate)) : null,
    all,
    database: resources.connections,
    maxRssMb: resources.maxRssMb,
    cpuProfiles: profiles.map((file) => path.relative(repoRoot, file)),
  };
}

function figuresOfStep(
  step: StepRun,
  events: readonly SentEvent[],
  notes: NoteWatch,
  absorbed: ReadonlySet<string>,
  recorded: ReadonlyMap<string, number>,
  restCpuMsPerSecond: number,
) {
  const acked = acknowledged(events);
  const accounting = noteAccounting(
    notes,
    acked.map((e) => e.id),
    absorbed,
  );
  const applied = acked.filter((e) => notes.visibleAt(e.id) !== undefined);
  const { before, after } = step;
  const cpuMs = after.cpuMs - before.cpuMs;
  const cpuSeconds = (after.readAt - before.readAt) / 1000;
  const statements =
    after.statements === null || before.statements === null
      ? null
      : after.statements - before.statements;
  const zendeskRequests = after.zendeskRequests - before.zendeskRequests;
  const incidentRequests = after.incidentRequests - before.incidentRequests;
  const notesWritten = after.notesWritten - before.notesWritten;
  const n = accounting.applied;
  const stage = (values: (number | undefined)[]) => {
    const { samples, p50Ms, p99Ms } = latencyFigures(
      values.filter((v): v is number => v !== undefined && Number.isFinite(v)),
    );
    return { samples, p50Ms, p99Ms };
  };
  const byName: Record<string, number> = {};
  for (const event of events) byName[event.event] = (byName[event.event] ?? 0) + 1;
  const lastVisible = Math.max(0, ...applied.map((e) => notes.visibleAt(e.id)!));
  const firstSent = events[0]?.sentAt ?? 0;
  return {
    rate: step.rate,
    events: events.length,
    eventsByName: byName,
    notAcknowledged: events.length - acked.length,
    ...missedDeliveries(events.map((e) => ({ missed: e.missed ?? [] }))),
    ...accounting,
    latency: latencyFigures(applied.map((e) => notes.visibleAt(e.id)! - e.sentAt)),
    stages: {
      ingest: stage(acked.map((e) => e.answeredAt! - e.sentAt)),
      // may be slightly below 0: the job can record the change before the answer reaches the sender
      eventJob: stage(applied.map((e) => (recorded.get(e.id) ?? NaN) - e.answeredAt!)),
      writer: stage(applied.map((e) => notes.visibleAt(e.id)! - (recorded.get(e.id) ?? NaN))),
    },
    appliedPerSecond: applied.length
      ? Number((applied.length / ((lastVisible - firstSent) / 1000 || 1)).toFixed(1))
      : 0,
    connectorCpuMs: cpuMs,
    cpuMsPerAppliedEvent: perEvent(cpuMs, n),
    /** Less what the instances use at rest over the same time (cpuWindowSeconds). */
    cpuMsPerAppliedEventAboveRest: perEvent(Math.round(cpuMs - restCpuMsPerSecond * cpuSeconds), n),
    cpuWindowSeconds: Number(cpuSeconds.toFixed(1)),
    databaseStatements: statements,
    statementsPerAppliedEvent: perEvent(statements, n),
    zendeskRequests,
    zendeskRequestsPerAppliedEvent: perEvent(zendeskRequests, n, 3),
    zendeskRequestsByEndpoint: endpointDelta(before.zendeskByEndpoint, after.zendeskByEndpoint),
    incidentRequests,
    incidentRequestsPerAppliedEvent: perEvent(incidentRequests, n, 3),
    incidentRequestsByEndpoint: endpointDelta(before.incidentByEndpoint, after.incidentByEndpoint),
    notesWritten,
    notesPerAppliedEvent: perEvent(notesWritten, n, 3),
    zendesk429s: after.zendesk429s - before.zendesk429s,
    loadGeneratorMaxLagMs: step.loadGeneratorMaxLagMs,
    drained: step.drained,
    drainSeconds: step.drainSeconds,
    wallSeconds: step.wallSeconds,
    cpuProfiled: step.cpuProfiled,
  };
}

type TargetFigures = Awaited<ReturnType<typeof measureTarget>>;
type Goal = { value: number | null; goal: string; met: boolean };

function goalsOf(name: string, t: TargetFigures): Record<string, Goal> {
  const goals: Record<string, Goal> = {};
  if (name === 'postgres') {
    for (const step of t.steps.filter((s) => s.rate <= GOALS.cpuUpToRate)) {
      const value = step.cpuMsPerAppliedEvent;
      goals[`${name}CpuMsPerEventAt${step.rate}`] = {
        value,
        goal: `<= ${GOALS.cpuMsPerEvent}${step.cpuProfiled ? ' (profiled step)' : ''}`,
        met: value !== null && value <= GOALS.cpuMsPerEvent,
      };
    }
    const judged = t.steps
      .filter((s) => s.rate <= GOALS.p99AtRate)
      .reduce<TargetFigures['steps'][number] | undefined>(
        (largest, s) => (!largest || s.rate > largest.rate ? s : largest),
        undefined,
      );
    if (judged)
      goals[`${name}P99MsAt${judged.rate}`] = {
        value: judged.applied > 0 ? judged.latency.p99Ms : null,
        goal: `< ${GOALS.p99Ms}`,
        met: judged.applied > 0 && judged.latency.p99Ms < GOALS.p99Ms,
      };
  }
  goals[`${name}Lost`] = { value: t.all.lost, goal: '0', met: t.all.lost === 0 };
  goals[`${name}Doubled`] = { value: t.all.doubled, goal: '0', met: t.all.doubled === 0 };
  return goals;
}

function summary(name: string, t: TargetFigures): string {
  const rows = t.steps.map(
    (s) =>
      `  ${String(s.rate).padStart(4)}/s: ${s.applied}/${s.acknowledged} noted, p50/p99 ${s.latency.p50Ms}/${s.latency.p99Ms} ms ` +
      `(ingest ${s.stages.ingest.p99Ms}, job ${s.stages.eventJob.p99Ms}, writer ${s.stages.writer.p99Ms} ms at p99); ` +
      `CPU ${s.cpuMsPerAppliedEvent} ms (${s.cpuMsPerAppliedEventAboveRest} above rest), ${s.statementsPerAppliedEvent} statements, ` +
      `${s.zendeskRequestsPerAppliedEvent} Zendesk and ${s.incidentRequestsPerAppliedEvent} incident requests, ` +
      `${s.notesPerAppliedEvent} notes per event; 429s ${s.zendesk429s}; lost ${s.lost}, doubled ${s.doubled}, absorbed ${s.absorbed}; ` +
      `lag ${s.loadGeneratorMaxLagMs} ms; drained in ${s.drainSeconds} s${s.cpuProfiled ? ' (profiled)' : ''}`,
  );
  return [
    `${name}: ${t.accounts} accounts, ${t.linkedTickets} linked tickets, ${t.instances} instance(s), ${t.restCpuMsPerSecond} ms of CPU a second at rest; ` +
      `highest step with p99 under ${GOALS.p99Ms / 1000} s: ${t.highestRateP99Under10s ?? 'none'}/s; ` +
      `lost ${t.all.lost}, doubled ${t.all.doubled} of ${t.all.acknowledged}`,
    ...rows,
    ...(t.cpuProfiles.length ? [`  CPU profiles: ${t.cpuProfiles.join(', ')}`] : []),
  ].join('\n');
}

const scenario = {
  accounts: accountCount,
  ticketsPerAccount,
  steps,
  stepSeconds,
  eventGroup: [
    'status_changed',
    'history_created',
    'takedown_updated',
    'history_created (analyst)',
  ],
  cpuProfile: cpuProfile ? { step: profiledRate, dir: path.relative(repoRoot, PROFILE_DIR) } : null,
};

runBenchmark({
  label: 'throughput bench',
  scenario,
  main: async (run) => {
    const loadAverageBefore = loadavg()[0]!;
    const { targets, skipped } = await measureEachTarget({
      targetNames,
      targetsVariable: 'BENCH_THROUGHPUT_TARGETS',
      timeLimitMs,
      run,
      measureTarget,
    });
    if (Object.keys(targets).length === 0)
      run.undecided(`no target measured: ${JSON.stringify(skipped)}`);
    const goals = Object.assign(
      {},
      ...Object.entries(targets).map(([n, t]) => goalsOf(n, t)),
    ) as Record<string, Goal>;
    const unmet = Object.entries(goals)
      .filter(([, g]) => !g.met)
      .map(([name]) => name);
    console.log(
      `throughput: ${accountCount} accounts x ${ticketsPerAccount} linked tickets, steps ${steps.join(', ')} events/s of ${stepSeconds} s; ` +
        `${cpus().length} CPUs, load average ${loadAverageBefore.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at the end`,
    );
    for (const [name, t] of Object.entries(targets)) console.log(summary(name, t));
    for (const [name, reason] of Object.entries(skipped))
      console.log(`${name}: skipped (${reason})`);
    const profiles = Object.values(targets).flatMap((t) => t.cpuProfiles);
    if (profiles.length > 0)
      console.log(
        `CPU profiles (step ${profiledRate}/s): ${profiles.join(', ')}; summary: npx tsx scripts/cpu-profile-summary.ts <file>`,
      );
    if (unmet.length > 0) console.log(`goals not met: ${unmet.join(', ')}`);
    return {
      verdict: unmet.length === 0 ? 'met' : 'not met',
      figures: {
        scenario,
        cpus: cpus().length,
        loadAverage1m: { start: loadAverageBefore, end: loadavg()[0] },
        wallSeconds: seconds1(Date.now() - startedAt),
        targets,
        skipped,
        goals,
        goalsNotMet: unmet,
      },
    };
  },
});

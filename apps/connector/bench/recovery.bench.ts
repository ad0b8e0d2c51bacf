// Recovery benchmark: how soon the connector catches up once a fault is over, measured the way an
// operator would see it.
//
// BENCH_RECOVERY_ACCOUNTS (4) accounts are installed through the connector's own install path and
// BENCH_RECOVERY_TICKETS (10) tickets of each are linked by real reports. Two phases follow.
//
// Outage: the first account's ticket updates answer 500 (a Zendesk sandbox fault on PUT
// /api/v2/tickets/*) for BENCH_RECOVERY_OUTAGE_SECONDS (95) while every account receives incident
// events at BENCH_RECOVERY_OUTAGE_RATE (4) per second. Measured: how long after the fault clears
// every acknowledged change of the failing account is on its ticket (goal: within 60 s), the other
// accounts' event-to-note p99 meanwhile, and /healthz's state for the failing account, read every
// second: it must not turn ok while its changes still wait (goal: "recovering" until the last one
// is written).
//
// Crash: a burst of BENCH_RECOVERY_BURST_RATE (40) events per second for
// BENCH_RECOVERY_BURST_SECONDS (20) over every linked ticket; at mid-burst one instance is
// SIGKILLed (PostgreSQL: the second of two, the address routed to the survivor as a load balancer
// would; PGlite: the only one, started again). Measured: how long after the kill every change
// acknowledged before it is on its ticket (goal: within 30 s), and when the burst's last note lands.
//
// Both phases count lost and doubled notes (goal 0 / 0). Targets (BENCH_RECOVERY_TARGETS,
// postgres,pglite): PostgreSQL (DATABASE_URL, a fresh schema) with two instances, PGlite with one;
// production worker settings, Zendesk's limits as the sandbox enforces them. Waits follow progress
// (notes are waited for while they keep landing, BENCH_RECOVERY_DRAIN_SECONDS without one ends the
// wait); the run stops after BENCH_RECOVERY_TIME_LIMIT_SECONDS (3600), printing what it measured.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import {
  benchFetch,
  progress,
  runBenchmark,
  waitingFor,
  type BenchmarkRun,
} from '../../../scripts/bench-support';
import type { ConnectorProcess } from '../test/support/connector-process';
import type { Backend } from '../test/support/test-database';
import { measureEachTarget } from './bench-targets';
import { envList, envNumber } from './bench-env';
import type { CleanupStack } from './cleanup-stack';
import { startConnectorFleet, type ConnectorFleet } from './connector-fleet';
import { collectLinks } from './linked-tickets';
import { noteAccounting, untilNoted, watchNotes, type NoteWatch } from './note-watch';
import { latencyFigures, runAtSteadyRate } from './steady-rate';
import {
  acknowledged,
  createEventSender,
  type EventSender,
  type EventTenant,
  type SentEvent,
} from './tenant-events';

const accountCount = Math.max(2, Math.round(envNumber('BENCH_RECOVERY_ACCOUNTS', 4)));
const ticketsPerAccount = Math.round(envNumber('BENCH_RECOVERY_TICKETS', 10));
const outageSeconds = envNumber('BENCH_RECOVERY_OUTAGE_SECONDS', 95);
const outageRate = envNumber('BENCH_RECOVERY_OUTAGE_RATE', 4);
const burstRate = envNumber('BENCH_RECOVERY_BURST_RATE', 40);
const burstSeconds = envNumber('BENCH_RECOVERY_BURST_SECONDS', 20);
const drainMs = envNumber('BENCH_RECOVERY_DRAIN_SECONDS', 240) * 1000;
const timeLimitMs = envNumber('BENCH_RECOVERY_TIME_LIMIT_SECONDS', 3600) * 1000;
const targetNames = envList('BENCH_RECOVERY_TARGETS', 'postgres,pglite');
process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/test';

const GOALS = {
  /** Every waiting change of the failing account written this long after the fault cleared. */
  outageCatchUpMs: 60_000,
  /** Every change acknowledged before the kill written this long after it. */
  crashCatchUpMs: 30_000,
};
/** Reported tickets are waited for while some keep getting linked: this long without a new one. */
const LINK_STALL_MS = 180_000;
const HEALTH_EVERY_MS = 1_000;

const runId = randomBytes(3).toString('hex');
const startedAt = Date.now();
const log = progress.log;
const seconds1 = (ms: number) => Number((ms / 1000).toFixed(1));

/** One /healthz reading: the failing account's write state ('ok' when it is not listed). */
interface HealthReading {
  at: number;
  state: string;
  waiting: number | null;
}

async function accountHealth(instance: ConnectorProcess, subdomain: string) {
  const response = await benchFetch('connector healthz', `${instance.url}/healthz`, {
    headers: { authorization: `Bearer ${instance.metricsToken}` },
  });
  const report = (await response.json()) as {
    ticketWrites?: { accounts?: { subdomain: string; state: string; waiting?: number }[] };
  };
  const listed = report.ticketWrites?.accounts?.find((a) => a.subdomain === subdomain);
  return { state: listed?.state ?? 'ok', waiting: listed?.waiting ?? null };
}

/** Reads the account's health every second until stopped; the readings so far, oldest first. */
function watchHealth(fleet: ConnectorFleet, subdomain: string) {
  const readings: HealthReading[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const instance = [...fleet.instances.values()][0];
      if (instance) {
        const reading = await accountHealth(instance, subdomain).catch(() => null);
        if (reading) readings.push({ at: performance.now(), ...reading });
      }
      await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
    }
  })();
  return {
    readings,
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/** The latest note among the events, in ms after `since` (null when one has none). */
function lastNoteAfter(notes: NoteWatch, events: readonly SentEvent[], since: number) {
  let last = since;
  for (const event of events) {
    const visible = notes.visibleAt(event.id);
    if (visible === undefined) return null;
    last = Math.max(last, visible);
  }
  return Math.round(last - since);
}

/** Event-to-note latency of the events that have their note. */
function eventToNote(notes: NoteWatch, events: readonly SentEvent[]) {
  return latencyFigures(
    events.flatMap((event) => {
      const visible = notes.visibleAt(event.id);
      return visible === undefined ? [] : [visible - event.sentAt];
    }),
  );
}

/** Sends `count` events at `rate` round the tenants' linked tickets; `onIndex` sees each index. */
function sendRound(
  sender: EventSender,
  tenants: readonly EventTenant[],
  phase: string,
  rate: number,
  count: number,
  onIndex: (index: number) => void = () => {},
) {
  const slots = tenants.flatMap((tenant) => tenant.links.map((link) => ({ tenant, link })));
  return runAtSteadyRate(rate, count, async (index) => {
    onIndex(index);
    const slot = slots[index % slots.length]!;
    await sender.send(slot.tenant, slot.link, phase);
  });
}

async function linkTickets(fleet: ConnectorFleet, subdomains: readonly string[], target: Backend) {
  const reported = await Promise.all(
    subdomains.map(async (subdomain) => {
      const controls = fleet.controlsOf(subdomain);
      const tickets = [];
      for (let i = 0; i < ticketsPerAccount; i += 1)
        tickets.push({
          subdomain,
          controls,
          ticketId: await controls.createTicket({
            threat: `https://login-${i}-${runId}.${subdomain}.recovery-${target}.test/signin`,
          }),
        });
      return tickets;
    }),
  );
  const tickets = reported.flat();
  const links = await collectLinks('reported tickets linked', tickets, LINK_STALL_MS);
  return (subdomain: string) =>
    links.filter(
      (link, index): link is NonNullable<typeof link> =>
        link !== undefined && tickets[index]!.subdomain === subdomain,
    );
}

async function outagePhase(input: {
  fleet: ConnectorFleet;
  target: Backend;
  tenants: EventTenant[];
  sender: EventSender;
  notes: NoteWatch;
}) {
  const { fleet, target, tenants, sender, notes } = input;
  const failing = tenants[0]!.subdomain;
  const zendeskControl = `${fleet.sandboxes.zendeskUrl}/_sandbox/faults`;
  await benchFetch('sandbox fault', zendeskControl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      subdomain: failing,
      method: 'PUT',
      path: '/api/v2/tickets/*',
      kind: 'error',
      status: 500,
    }),
  });
  log(`${target}: outage, ${failing}'s ticket updates answer 500 for ${outageSeconds} s`);
  const health = watchHealth(fleet, failing);
  const load = await sendRound(
    sender,
    tenants,
    'outage',
    outageRate,
    Math.round(outageRate * outageSeconds),
  );
  await benchFetch('sandbox fault', zendeskControl, { method: 'DELETE' });
  const clearedAt = performance.now();
  log(`${target}: the fault cleared; waiting for ${failing}'s changes`);
  const events = acknowledged(sender.sent.filter((event) => event.phase === 'outage'));
  const failingEvents = events.filter((event) => event.subdomain === failing);
  const othersEvents = events.filter((event) => event.subdomain !== failing);
  await untilNoted(
    notes,
    events.map((event) => event.id),
    drainMs,
    250,
    `${target}: the outage's notes`,
  );
  await waitingFor(`${target}: the connector's queues idle`, fleet.queuesIdle);
  await health.stop();
  const catchUpMs = lastNoteAfter(notes, failingEvents, clearedAt);
  const lastWrittenAt = catchUpMs === null ? null : clearedAt + catchUpMs;
  const after = health.readings.filter((reading) => reading.at >= clearedAt);
  const okAt = after.find((reading) => reading.state === 'ok')?.at ?? null;
  return {
    failingAccount: failing,
    loadGeneratorMaxLagMs: load.maxStartLagMs,
    failingAccountCatchUpSeconds: catchUpMs === null ? null : seconds1(catchUpMs),
    statesDuringOutage: [
      ...new Set(health.readings.filter((r) => r.at < clearedAt).map((r) => r.state)),
    ],
    statesAfterClear: [...new Set(after.map((reading) => reading.state))],
    /** /healthz said ok for the account this long before its last change was written (> 0: too soon). */
    healthOkBeforeLastWriteSeconds:
      okAt === null || lastWrittenAt === null ? null : seconds1(lastWrittenAt - okAt),
    otherAccountsEventToNote: eventToNote(notes, othersEvents),
    notes: noteAccounting(
      notes,
      events.map((event) => event.id),
    ),
  };
}

async function crashPhase(input: {
  fleet: ConnectorFleet;
  target: Backend;
  tenants: EventTenant[];
  sender: EventSender;
  notes: NoteWatch;
}) {
  const { fleet, target, tenants, sender, notes } = input;
  const victim = target === 'postgres' ? 'instance-2' : 'instance-1';
  const count = Math.round(burstRate * burstSeconds);
  log(`${target}: crash, ${count} events at ${burstRate}/s; ${victim} SIGKILLed at mid-burst`);
  let killing: Promise<{ killedAt: number; restartMs: number | null }> | undefined;
  const kill = async () => {
    fleet.route([...fleet.instances.keys()].filter((label) => label !== victim));
    const killedAt = performance.now();
    await fleet.killInstance(victim);
    if (target === 'postgres') return { killedAt, restartMs: null };
    await fleet.startInstance(`${victim}-restarted`);
    fleet.route();
    return { killedAt, restartMs: Math.round(performance.now() - killedAt) };
  };
  const load = await sendRound(sender, tenants, 'crash', burstRate, count, (index) => {
    if (index !== Math.floor(count / 2)) return;
    killing = kill();
    killing.catch(() => undefined); // awaited after the load
  });
  const burstEndedAt = performance.now();
  const killed = await killing!;
  const events = acknowledged(sender.sent.filter((event) => event.phase === 'crash'));
  const beforeKill = events.filter((event) => (event.answeredAt ?? Infinity) < killed.killedAt);
  await untilNoted(
    notes,
    events.map((event) => event.id),
    drainMs,
    250,
    `${target}: the burst's notes`,
  );
  const catchUpMs = lastNoteAfter(notes, beforeKill, killed.killedAt);
  const allMs = lastNoteAfter(notes, events, burstEndedAt);
  return {
    victim,
    loadGeneratorMaxLagMs: load.maxStartLagMs,
    restartSeconds: killed.restartMs === null ? null : seconds1(killed.restartMs),
    acknowledgedBeforeKill: beforeKill.length,
    beforeKillWrittenWithinSecondsOfKill: catchUpMs === null ? null : seconds1(catchUpMs),
    lastNoteSecondsAfterBurst: allMs === null ? null : seconds1(allMs),
    eventToNote: eventToNote(notes, events),
    notes: noteAccounting(
      notes,
      events.map((event) => event.id),
    ),
  };
}

async function measureTarget(target: Backend, cleanups: CleanupStack, run: BenchmarkRun) {
  const soFar: Record<string, unknown> = {};
  run.measured(target, () => soFar);
  const fleet = await startConnectorFleet({ name: 'recovery', target, runId, cleanups });
  const subdomains = Array.from({ length: accountCount }, (_, i) => `recovery-${i + 1}`);
  run.stage(`${target}: installing accounts`);
  const accounts = await fleet.install(subdomains);
  run.stage(`${target}: starting instances`);
  for (const label of target === 'postgres' ? ['instance-1', 'instance-2'] : ['instance-1'])
    await fleet.startInstance(label);
  fleet.route();
  run.stage(`${target}: linking reported tickets`);
  const linksOf = await linkTickets(fleet, subdomains, target);
  const tenants: EventTenant[] = accounts.map((account) => ({
    subdomain: account.subdomain,
    incidentClientId: account.incidentClientId,
    links: linksOf(account.subdomain),
  }));
  await waitingFor(`${target}: the connector's queues idle`, fleet.queuesIdle);
  const notes = watchNotes(fleet.sandboxes.zendeskSandbox, subdomains);
  cleanups.push('note watch', async () => notes.stop());
  const sender = createEventSender(fleet.sandboxes.deliverIncidentEvent, runId, 'evt_rec');
  const phaseInput = { fleet, target, tenants, sender, notes };

  run.stage(`${target}: outage`);
  soFar.outage = await outagePhase(phaseInput);
  run.stage(`${target}: crash`);
  soFar.crash = await crashPhase(phaseInput);
  return soFar as {
    outage: Awaited<ReturnType<typeof outagePhase>>;
    crash: Awaited<ReturnType<typeof crashPhase>>;
  };
}

function goalsMet(figures: Awaited<ReturnType<typeof measureTarget>>): boolean {
  const { outage, crash } = figures;
  const within = (seconds: number | null, ms: number) => seconds !== null && seconds * 1000 <= ms;
  return (
    within(outage.failingAccountCatchUpSeconds, GOALS.outageCatchUpMs) &&
    (outage.healthOkBeforeLastWriteSeconds ?? 0) <= HEALTH_EVERY_MS / 1000 &&
    within(crash.beforeKillWrittenWithinSecondsOfKill, GOALS.crashCatchUpMs) &&
    outage.notes.lost + outage.notes.doubled + crash.notes.lost + crash.notes.doubled === 0
  );
}

runBenchmark({
  label: 'recovery',
  scenario: {
    accounts: accountCount,
    ticketsPerAccount,
    outageSeconds,
    outageRate,
    burstRate,
    burstSeconds,
    targets: targetNames,
  },
  async main(run) {
    const { targets, skipped } = await measureEachTarget({
      targetNames,
      targetsVariable: 'BENCH_RECOVERY_TARGETS',
      timeLimitMs,
      run,
      measureTarget,
    });
    const figures = Object.values(targets);
    const lost = figures.some((f) => f.outage.notes.lost + f.crash.notes.lost > 0);
    return {
      verdict: figures.length > 0 && figures.every(goalsMet) ? 'met' : 'not met',
      figures: {
        goals: GOALS,
        targets,
        skipped,
        cpus: cpus().length,
        loadAverage1m: loadavg()[0],
        wallSeconds: seconds1(Date.now() - startedAt),
      },
      exitCode: lost ? 1 : 0,
    };
  },
});

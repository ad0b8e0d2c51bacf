// Benchmark of many tenants: one connector deployment serves every Zendesk account that installs
// it, so one account over its Zendesk quota must not slow the others, the database must stay
// bounded, and a crashed instance must not hold anyone's events for long.
//
// BENCH_TENANTS_ACCOUNTS (200) accounts are installed in the Zendesk sandbox, each with its own
// incident client, through the connector's own install path (install-accounts.ts says why not by
// OAuth), and BENCH_TENANTS_TICKETS (2) tickets of each are linked by real reports. Then incident
// events at BENCH_TENANTS_RATE (50) per second for BENCH_TENANTS_SECONDS (60), spread over the
// quiet accounts' tickets, signed and sent to each account's subscription; a note is "visible" when
// the sandbox commits it (note-watch.ts). Three phases of that load:
//   A  the baseline: nothing else;
//   B  the same, plus a NOISY account limited to 2 Zendesk requests a minute that receives a burst
//      of BENCH_TENANTS_NOISY_EVENTS (300) events and BENCH_TENANTS_NOISY_REPORTS (12) reports
//      (tickets tagged for report); meanwhile a quiet account's ticket is tagged for report, three
//      times over the phase once the noisy account is answered 429s, and timed until it is linked;
//   C  recovery: at mid-phase one instance is SIGKILLed (PostgreSQL: the second of two; PGlite: the
//      only one, then restarted); timed until the note of the last event acknowledged before the
//      kill is visible.
// Between B and C the noisy account gets its quota back and its backlog drains.
//
// Reported per target: quiet p50 / p99 in A and B and their ratio B/A (goal <= 1.5), the quiet
// report's time to link (goal < 10 s), the recovery (goal <= 30 s after the kill, or after the
// restart on PGlite), lost and doubled events (goal 0: every acknowledged event's note exactly
// once), deliveries not acknowledged within 5 s (sent again, as the service does: redelivery.ts),
// the most PostgreSQL connections the instances held at once (pg_stat_activity, every 500 ms) and
// each instance's highest RSS. Goals are reported, not enforced: the run exits 0 when it measured,
// whatever the figures (`verdict` met or not met), and 2 when it could not (`verdict` undecided).
//
// Targets (BENCH_TENANTS_TARGETS, postgres,pglite): PostgreSQL (DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/test; a fresh schema, dropped afterwards) with two instances
// (src/main.ts child processes) behind one address, and PGlite with one. Production defaults for
// the worker (2 s polling, 300 s job timeout). BENCH_TENANTS_SCALE=quick sets smaller defaults for
// development (20 accounts, 5 events/s for 10 s: the same load per account). Waits follow
// progress: an instance starts for as long as it uses CPU time (child-progress.ts), links and notes
// are waited for while they keep coming (notes until none landed for BENCH_TENANTS_DRAIN_SECONDS,
// 360), and the whole run stops, cleaning up its processes and schema, after
// BENCH_TENANTS_TIME_LIMIT_SECONDS (5400), printing what it measured by then.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import {
  benchFetch,
  progress,
  runBenchmark,
  waitingFor,
  type BenchmarkRun,
} from '../../../scripts/bench-support';
import type { Backend } from '../test/support/test-database';
import { measureEachTarget } from './bench-targets';
import { envList, envNumber } from './bench-env';
import type { CleanupStack } from './cleanup-stack';
import { startConnectorFleet } from './connector-fleet';
import type { InstalledAccount } from './install-accounts';
import { collectLinks, linkOf, untilLinked, type SandboxControls } from './linked-tickets';
import { noteAccounting, untilNoted, watchNotes, type NoteWatch } from './note-watch';
import { missedDeliveries } from './redelivery';
import { latencyFigures, runAtSteadyRate } from './steady-rate';
import {
  acknowledged,
  createEventSender,
  type EventSender,
  type EventTenant,
  type SentEvent,
} from './tenant-events';

const quick = process.env.BENCH_TENANTS_SCALE === 'quick';
const accountCount = Math.round(envNumber('BENCH_TENANTS_ACCOUNTS', quick ? 20 : 200));
const rate = envNumber('BENCH_TENANTS_RATE', quick ? 5 : 50);
const seconds = envNumber('BENCH_TENANTS_SECONDS', quick ? 10 : 60);
const ticketsPerAccount = Math.round(envNumber('BENCH_TENANTS_TICKETS', 2));
const noisyEventCount = Math.round(envNumber('BENCH_TENANTS_NOISY_EVENTS', 300));
const noisyReportCount = Math.round(envNumber('BENCH_TENANTS_NOISY_REPORTS', 12));
const drainMs = envNumber('BENCH_TENANTS_DRAIN_SECONDS', 360) * 1000;
const timeLimitMs = envNumber('BENCH_TENANTS_TIME_LIMIT_SECONDS', 5400) * 1000;
const targetNames = envList('BENCH_TENANTS_TARGETS', 'postgres,pglite');
process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/test';

const NOISY = 'noisy';
/** The noisy account's quota during phase B, and every account's (Enterprise) otherwise. */
const NOISY_REQUESTS_PER_MINUTE = 2;
const PLAN_REQUESTS_PER_MINUTE = 700;
/** When in phase B the quiet reports are tagged, as fractions of the phase. */
const PROBE_AT = [0.25, 0.5, 0.75];
/** Reported tickets are waited for while some keep getting linked: this long without a new one. */
const LINK_STALL_MS = 180_000;
const GOALS = { ratio: 1.5, quietReportMs: 10_000, recoveryMs: 30_000 };
const MIN_ACCOUNTS = PROBE_AT.length + 2;
if (accountCount < MIN_ACCOUNTS)
  throw new Error(`BENCH_TENANTS_ACCOUNTS must be at least ${MIN_ACCOUNTS}`);

const runId = randomBytes(3).toString('hex');
const startedAt = Date.now();
const log = progress.log;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const seconds1 = (ms: number) => Number((ms / 1000).toFixed(1));
const ratio = (b: number, a: number) => (a > 0 ? Number((b / a).toFixed(2)) : null);

function latencyOf(notes: NoteWatch, events: readonly SentEvent[]) {
  return latencyFigures(
    events.map((e) => (notes.visibleAt(e.id) ?? Number.NaN) - e.sentAt).filter(Number.isFinite),
  );
}

function phaseFigures(notes: NoteWatch, events: readonly SentEvent[], maxStartLagMs: number) {
  const acked = acknowledged(events);
  return {
    events: events.length,
    notAcknowledged: events.length - acked.length,
    ...missedDeliveries(events.map((e) => ({ missed: e.missed ?? [] }))),
    ...noteAccounting(
      notes,
      acked.map((e) => e.id),
    ),
    latency: latencyOf(notes, acked),
    loadGeneratorMaxLagMs: maxStartLagMs,
  };
}

/** Tags the ticket for report through the API as one of the account's agents (the trigger fires). */
async function tagForReport(controls: SandboxControls, token: string, ticketId: number) {
  const response = await benchFetch(
    'zendesk api',
    `${controls.zendeskUrl}/_z/${controls.seed.subdomain}/api/v2/tickets/${ticketId}.json`,
    {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ticket: { additional_tags: ['incident_submit'] } }),
    },
  );
  if (!response.ok)
    throw new Error(`tagging ticket ${ticketId}: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
}

async function linkedCount(controls: SandboxControls, ticketIds: readonly number[]) {
  let count = 0;
  for (const ticketId of ticketIds) if (await linkOf(controls, ticketId)) count += 1;
  return count;
}

/**
 * Each account's reported tickets once linked, waiting while tickets keep getting linked; an
 * account gets what was linked by the time none more was for LINK_STALL_MS (an account without a
 * link receives no events).
 */
async function linkedTenants(
  accounts: readonly InstalledAccount[],
  controlsOf: (subdomain: string) => SandboxControls,
  reported: ReadonlyMap<string, number[]>,
): Promise<EventTenant[]> {
  const tickets = accounts.flatMap((account) =>
    reported.get(account.subdomain)!.map((ticketId) => ({
      subdomain: account.subdomain,
      controls: controlsOf(account.subdomain),
      ticketId,
    })),
  );
  const links = await collectLinks('reported tickets linked', tickets, LINK_STALL_MS);
  return accounts.map((account) => ({
    subdomain: account.subdomain,
    incidentClientId: account.incidentClientId,
    links: links.filter(
      (link, index): link is NonNullable<typeof link> =>
        link !== undefined && tickets[index]!.subdomain === account.subdomain,
    ),
  }));
}

/** Per phase so far: events sent, acknowledged, sent again and noted (for an undecided run). */
function liveCounts(sender: EventSender, notes: NoteWatch) {
  const phases: Record<
    string,
    { sent: number; acknowledged: number; resent: number; noted: number }
  > = {};
  for (const event of sender.sent) {
    const phase = (phases[event.phase] ??= { sent: 0, acknowledged: 0, resent: 0, noted: 0 });
    phase.sent += 1;
    if (event.status === 200) phase.acknowledged += 1;
    phase.resent += event.missed?.length ?? 0;
    if (notes.visibleAt(event.id) !== undefined) phase.noted += 1;
  }
  return phases;
}

function phaseLine(sender: EventSender, notes: NoteWatch, phase: string): string {
  const live = liveCounts(sender, notes)[phase] ?? {
    sent: 0,
    acknowledged: 0,
    resent: 0,
    noted: 0,
  };
  return `${live.sent} events sent, ${live.acknowledged} acknowledged, ${live.resent} deliveries sent again, ${live.noted} noted`;
}

/**
 * A quiet account's report while the noisy account's jobs meet 429s: at `at`, once the noisy
 * account was answered a 429 (or the phase is over), the ticket is tagged for report and timed
 * until it is linked (null: not within `timeoutMs`).
 */
async function timeQuietReport(input: {
  controls: SandboxControls;
  token: string;
  ticketId: number;
  noisy: SandboxControls;
  noisyReports: readonly number[];
  at: number;
  phaseStarted: number;
  phaseEnds: number;
  timeoutMs: number;
}) {
  const { noisy } = input;
  await sleep(input.at - performance.now());
  // the phase's own schedule, not a time limit: past its end the report is tagged regardless
  while ((await noisy.rateLimited()).total === 0 && performance.now() < input.phaseEnds)
    await sleep(250);
  const noisy429sBefore = (await noisy.rateLimited()).total;
  const noisyReportsLinkedBefore = await linkedCount(noisy, input.noisyReports);
  const taggedAt = performance.now();
  await tagForReport(input.controls, input.token, input.ticketId);
  const linkedMs = await untilLinked(input.controls, [input.ticketId], input.timeoutMs, 100).then(
    () => Math.round(performance.now() - taggedAt),
    () => null,
  );
  return {
    account: input.controls.seed.subdomain,
    taggedAtSecond: seconds1(taggedAt - input.phaseStarted),
    linkedMs,
    noisy429sBefore,
    noisyReportsLinkedBefore,
  };
}

/** The acknowledged event whose answer came last before `at`, and how many came before it. */
function lastAcknowledgedBefore(events: readonly SentEvent[], at: number) {
  const before = acknowledged(events).filter((e) => (e.answeredAt ?? Infinity) < at);
  const last = before.reduce<SentEvent | undefined>(
    (latest, e) => (!latest || e.answeredAt! > latest.answeredAt! ? e : latest),
    undefined,
  );
  return { before, last };
}

async function measureTarget(target: Backend, cleanups: CleanupStack, run: BenchmarkRun) {
  /** What each stage measured, as it ends, and the events' counts: an undecided run prints them. */
  const soFar: Record<string, unknown> = {};
  let eventsSoFar = () => ({});
  run.measured(target, () => ({ ...soFar, eventsSoFar: eventsSoFar() }));
  const fleet = await startConnectorFleet({ name: 'tenants', target, runId, cleanups });
  const { sandboxes, instances, controlsOf } = fleet;

  // --- accounts, instances, links
  const subdomains = [
    NOISY,
    ...Array.from(
      { length: accountCount - 1 },
      (_, i) => `quiet-${String(i + 1).padStart(3, '0')}`,
    ),
  ];
  run.stage(`${target}: installing accounts`);
  log(`${target}: installing ${subdomains.length} accounts`);
  const installStarted = performance.now();
  const accounts = await fleet.install(subdomains);
  const installMs = performance.now() - installStarted;
  soFar.install = { accounts: accounts.length, installSeconds: seconds1(installMs) };

  const labels = target === 'postgres' ? ['instance-1', 'instance-2'] : ['instance-1'];
  run.stage(`${target}: starting instances`);
  log(`${target}: ${accounts.length} accounts installed; starting ${labels.length} instance(s)`);
  for (const label of labels) await fleet.startInstance(label);
  fleet.route();
  const sampler = await fleet.sampleResources();

  const quietAccounts = accounts.filter((account) => account.subdomain !== NOISY);
  const probeAccounts = PROBE_AT.map((at) => quietAccounts[Math.floor(at * quietAccounts.length)]!);
  const threat = (subdomain: string, name: string) =>
    `https://login-${name}-${runId}.${subdomain}.tenants-${target}.test/signin`;

  const reportCount = accounts.length * ticketsPerAccount;
  run.stage(`${target}: linking reported tickets`);
  log(`${target}: reporting ${reportCount} tickets to link them`);
  const linkStarted = performance.now();
  const reported = new Map<string, number[]>();
  const restore = progress.doing(
    () => `${target}: opening tickets to report, ${reported.size} of ${accounts.length} accounts`,
  );
  for (const account of accounts) {
    const ticketIds: number[] = [];
    for (let i = 0; i < ticketsPerAccount; i += 1)
      ticketIds.push(
        await controlsOf(account.subdomain).createTicket({
          threat: threat(account.subdomain, String(i)),
        }),
      );
    reported.set(account.subdomain, ticketIds);
  }
  // a ticket per probe account, not tagged yet: phase B tags it for report
  const probeTickets = new Map<string, number>();
  for (const account of probeAccounts)
    probeTickets.set(
      account.subdomain,
      await controlsOf(account.subdomain).createTicket({
        threat: threat(account.subdomain, 'probe'),
        tags: [],
      }),
    );
  restore();
  const tenants = await linkedTenants(accounts, controlsOf, reported);
  const linkMs = performance.now() - linkStarted;
  const unlinkedReports = reportCount - tenants.reduce((sum, t) => sum + t.links.length, 0);
  soFar.link = {
    linkedTickets: reportCount - unlinkedReports,
    unlinkedReports,
    linkSeconds: seconds1(linkMs),
  };
  if (unlinkedReports > 0)
    log(
      `${target}: ${unlinkedReports} reports not linked (none newly linked for ${LINK_STALL_MS / 1000} s)`,
    );
  await waitingFor(`${target}: the incident sandbox's deliveries`, () =>
    sandboxes.incidentDeliveriesIdle(),
  );
  await waitingFor(`${target}: the connector's queues idle`, fleet.queuesIdle);

  const notes = watchNotes(sandboxes.zendeskSandbox, subdomains);
  cleanups.push('note watch', async () => notes.stop());
  const sender = createEventSender(sandboxes.deliverIncidentEvent, runId);
  eventsSoFar = () => liveCounts(sender, notes);
  const eventsOf = (phase: string) => sender.sent.filter((e) => e.phase === phase);
  const ackedIds = (phase: string) => acknowledged(eventsOf(phase)).map((e) => e.id);
  const quietTenants = tenants.filter(
    (tenant) => tenant.subdomain !== NOISY && tenant.links.length > 0,
  );
  if (quietTenants.length === 0) throw new Error('no quiet account has a linked ticket');
  const noisyTenant = tenants.find((tenant) => tenant.subdomain === NOISY)!;
  const noisy = controlsOf(NOISY);
  const eventCount = Math.round(rate * seconds);
  /** The quiet load: event i to account i mod n, each account's tickets in turn. */
  const quietLoad = (phase: string, onStart?: (index: number) => void) =>
    runAtSteadyRate(rate, eventCount, async (index) => {
      onStart?.(index);
      const tenant = quietTenants[index % quietTenants.length]!;
      const link = tenant.links[Math.floor(index / quietTenants.length) % tenant.links.length]!;
      await sender.send(tenant, link, phase);
    });
  const drain = async (phase: string) => {
    if (
      !(await untilNoted(notes, ackedIds(phase), drainMs, 250, `${target}: phase ${phase}'s notes`))
    )
      log(`${target}: phase ${phase}: notes still missing, none landed for ${drainMs / 1000} s`);
  };
  let leavePhase = () => {};
  const enterPhase = (phase: string, also = () => '') => {
    leavePhase();
    run.stage(`${target}: phase ${phase}`);
    leavePhase = progress.doing(
      () => `${target}: phase ${phase}, ${phaseLine(sender, notes, phase)}${also()}`,
    );
  };

  // --- phase A: the baseline
  log(`${target}: phase A, ${eventCount} events at ${rate}/s over ${quietTenants.length} accounts`);
  enterPhase('A');
  const loadA = await quietLoad('A');
  await drain('A');
  soFar.phaseA = phaseFigures(notes, eventsOf('A'), loadA.maxStartLagMs);

  // --- phase B: the same load beside a noisy account over its quota
  log(
    `${target}: phase B, the same plus ${noisyEventCount} events and ${noisyReportCount} reports for an account limited to ${NOISY_REQUESTS_PER_MINUTE} requests a minute`,
  );
  enterPhase('B', () => `; noisy account: ${phaseLine(sender, notes, 'noisy')}`);
  await noisy.setLimits({ requests_per_minute: NOISY_REQUESTS_PER_MINUTE });
  await noisy.resetRateLimited();
  const phaseBStarted = performance.now();
  const loadB = quietLoad('B');
  const noisyEvents = noisyTenant.links.length > 0 ? noisyEventCount : 0;
  const burst = runAtSteadyRate(noisyEventCount * 10, noisyEvents, async (index) => {
    await sender.send(noisyTenant, noisyTenant.links[index % noisyTenant.links.length]!, 'noisy');
  });
  const noisyReports: number[] = [];
  const noisyReportsOpened = (async () => {
    for (let i = 0; i < noisyReportCount; i += 1)
      noisyReports.push(await noisy.createTicket({ threat: threat(NOISY, `burst-${i}`) }));
  })();
  const probes = Promise.all(
    probeAccounts.map(async (account, index) => {
      await noisyReportsOpened;
      return timeQuietReport({
        controls: controlsOf(account.subdomain),
        token: sandboxes.zendeskSandbox.issueToken(account.subdomain, account.seed.agentIds[0], [
          'read',
          'write',
        ]),
        ticketId: probeTickets.get(account.subdomain)!,
        noisy,
        noisyReports,
        at: phaseBStarted + PROBE_AT[index]! * seconds * 1000,
        phaseStarted: phaseBStarted,
        phaseEnds: phaseBStarted + seconds * 1000,
        timeoutMs: drainMs,
      });
    }),
  );
  // the phase's notes are waited for while the quiet reports may still be waiting for their link
  const [bLoad, burstLoad, quietReports] = await Promise.all([
    loadB.then(async (load) => {
      await drain('B');
      return load;
    }),
    burst,
    probes,
    noisyReportsOpened,
  ]);
  const noisyRateLimited = await noisy.rateLimited();
  const noisyReportsLinkedInB = await linkedCount(noisy, noisyReports);
  soFar.phaseB = phaseFigures(notes, eventsOf('B'), bLoad.maxStartLagMs);
  soFar.quietReports = quietReports;

  // the neighbour gets its quota back; its backlog drains before the recovery phase
  run.stage(`${target}: the noisy account's backlog draining`);
  log(`${target}: the noisy account's quota back; draining its backlog`);
  await noisy.setLimits({ requests_per_minute: PLAN_REQUESTS_PER_MINUTE });
  const liftedAt = performance.now();
  const [noisyNoted, noisyLinked] = await Promise.all([
    untilNoted(notes, ackedIds('noisy'), drainMs, 250, `${target}: the noisy account's notes`),
    untilLinked(noisy, noisyReports, drainMs, 1_000).then(
      () => true,
      () => false,
    ),
  ]);
  const noisyDrainMs = performance.now() - liftedAt;
  leavePhase();
  soFar.noisyDrainSeconds = seconds1(noisyDrainMs);
  await waitingFor(`${target}: the connector's queues idle`, fleet.queuesIdle);

  // --- phase C: an instance killed mid-phase
  const victim = target === 'postgres' ? 'instance-2' : 'instance-1';
  log(`${target}: phase C, ${eventCount} events; ${victim} SIGKILLed at mid-phase`);
  enterPhase('C');
  let killing:
    Promise<{ killedAt: number; restartedAt: number | null; restartMs: number | null }> | undefined;
  const kill = async () => {
    // the proxy stops routing to it, as a load balancer's health check soon would
    fleet.route([...instances.keys()].filter((label) => label !== victim));
    const killedAt = performance.now();
    await fleet.killInstance(victim);
    if (target === 'postgres') return { killedAt, restartedAt: null, restartMs: null };
    await fleet.startInstance(`${victim}-restarted`);
    const restartedAt = performance.now();
    fleet.route();
    return { killedAt, restartedAt, restartMs: Math.round(restartedAt - killedAt) };
  };
  const killIndex = Math.floor(eventCount / 2);
  const loadC = await quietLoad('C', (index) => {
    if (index === killIndex) {
      killing = kill();
      killing.catch(() => undefined); // awaited below, after the load
    }
  });
  const killed = await killing!;
  const { before: answeredBeforeKill, last: lastBeforeKill } = lastAcknowledgedBefore(
    eventsOf('C'),
    killed.killedAt,
  );
  await drain('C');
  leavePhase();
  run.stage(`${target}: reading the figures`);
  const lastVisible = lastBeforeKill ? notes.visibleAt(lastBeforeKill.id) : undefined;
  const since = (at: number | null) =>
    lastVisible === undefined || at === null ? null : Math.round(lastVisible - at);
  const recovery = {
    killed: victim,
    killedAtSecond: seconds1(killed.killedAt - (eventsOf('C')[0]?.sentAt ?? killed.killedAt)),
    restartMs: killed.restartMs,
    lastAcknowledgedBeforeKill: lastBeforeKill?.id ?? null,
    noteAfterKillMs: since(killed.killedAt),
    noteAfterRestartMs: since(killed.restartedAt),
    acknowledgedBeforeKill: answeredBeforeKill.length,
    acknowledgedBeforeKillWithoutNote: answeredBeforeKill.filter(
      (e) => notes.visibleAt(e.id) === undefined,
    ).length,
  };

  // --- the whole run's accounting (every phase had its drain), and what the instances held
  const allAcked = acknowledged(sender.sent).map((e) => e.id);
  const resources = await sampler.stop();
  let quiet429s = 0;
  for (const account of quietAccounts)
    quiet429s += (await controlsOf(account.subdomain).rateLimited()).total;
  notes.stop();

  const phaseA = phaseFigures(notes, eventsOf('A'), loadA.maxStartLagMs);
  const phaseB = phaseFigures(notes, eventsOf('B'), bLoad.maxStartLagMs);
  const reportTimes = quietReports.map((probe) => probe.linkedMs);
  const figures = {
    accounts: accounts.length,
    quietAccounts: quietTenants.length,
    instances: labels.length,
    linkedTickets: reportCount - unlinkedReports,
    unlinkedReports,
    installSeconds: seconds1(installMs),
    linkSeconds: seconds1(linkMs),
    phaseA,
    phaseB,
    quietRatioBA: {
      p50: ratio(phaseB.latency.p50Ms, phaseA.latency.p50Ms),
      p99: ratio(phaseB.latency.p99Ms, phaseA.latency.p99Ms),
    },
    noisy: {
      ...phaseFigures(notes, eventsOf('noisy'), burstLoad.maxStartLagMs),
      reports: noisyReportCount,
      reportsLinkedDuringB: noisyReportsLinkedInB,
      zendesk429sDuringB: noisyRateLimited,
      drainedAfterQuotaBack: noisyNoted && noisyLinked,
      drainSecondsAfterQuotaBack: seconds1(noisyDrainMs),
    },
    quietReport: {
      probes: quietReports,
      maxMs: reportTimes.every((ms) => ms !== null) ? Math.max(...reportTimes) : null,
    },
    phaseC: phaseFigures(notes, eventsOf('C'), loadC.maxStartLagMs),
    recovery,
    all: noteAccounting(notes, allAcked),
    quietAccounts429s: quiet429s,
    database: resources.connections,
    maxRssMb: resources.maxRssMb,
    resourceSamples: resources.samples,
  };
  log(
    `${target}: quiet p99 A ${phaseA.latency.p99Ms} ms, B ${phaseB.latency.p99Ms} ms (x${figures.quietRatioBA.p99}); report ${figures.quietReport.maxMs} ms; recovery ${recovery.noteAfterKillMs} ms`,
  );
  return figures;
}

type TargetFigures = Awaited<ReturnType<typeof measureTarget>>;

function goalsOf(name: string, t: TargetFigures) {
  const recoveryMs =
    t.recovery.restartMs === null ? t.recovery.noteAfterKillMs : t.recovery.noteAfterRestartMs;
  const goal = (value: number | null, text: string, met: (v: number) => boolean) => ({
    value,
    goal: text,
    met: value !== null && met(value),
  });
  return {
    [`${name}QuietP50RatioBA`]: goal(
      t.quietRatioBA.p50,
      `<= ${GOALS.ratio}`,
      (v) => v <= GOALS.ratio,
    ),
    [`${name}QuietP99RatioBA`]: goal(
      t.quietRatioBA.p99,
      `<= ${GOALS.ratio}`,
      (v) => v <= GOALS.ratio,
    ),
    [`${name}QuietReportMs`]: goal(
      t.quietReport.maxMs,
      `< ${GOALS.quietReportMs}`,
      (v) => v < GOALS.quietReportMs,
    ),
    [`${name}RecoveryMs`]: goal(
      recoveryMs,
      `<= ${GOALS.recoveryMs} after the ${t.recovery.restartMs === null ? 'kill' : 'restart'}`,
      (v) => v <= GOALS.recoveryMs,
    ),
    [`${name}Lost`]: goal(t.all.lost, '0', (v) => v === 0),
    [`${name}Doubled`]: goal(t.all.doubled, '0', (v) => v === 0),
  };
}

function summary(name: string, t: TargetFigures): string {
  const db = t.database
    ? `${t.database.maxOpen} PostgreSQL connections at most (${t.database.maxActive} active)`
    : 'PGlite (in-process)';
  return (
    `${name}: ${t.accounts} accounts, ${t.instances} instance(s); quiet p50/p99 A ${t.phaseA.latency.p50Ms}/${t.phaseA.latency.p99Ms} ms, ` +
    `B ${t.phaseB.latency.p50Ms}/${t.phaseB.latency.p99Ms} ms (B/A ${t.quietRatioBA.p50}/${t.quietRatioBA.p99}); ` +
    `quiet report linked in ${t.quietReport.probes.map((p) => p.linkedMs ?? 'never').join(', ')} ms; ` +
    `recovery: last note ${t.recovery.noteAfterKillMs ?? 'never'} ms after the kill` +
    (t.recovery.restartMs === null
      ? ''
      : ` (restart ${t.recovery.restartMs} ms, ${t.recovery.noteAfterRestartMs ?? 'never'} ms after it)`) +
    `; lost ${t.all.lost}, doubled ${t.all.doubled} of ${t.all.acknowledged}; ` +
    `deliveries sent again A ${t.phaseA.deliveriesNotAcknowledged}, B ${t.phaseB.deliveriesNotAcknowledged}, ` +
    `noisy ${t.noisy.deliveriesNotAcknowledged}, C ${t.phaseC.deliveriesNotAcknowledged}; ${db}; ` +
    `RSS max ${Object.entries(t.maxRssMb)
      .map(([label, mb]) => `${label} ${mb} MiB`)
      .join(', ')}`
  );
}

const scenario = {
  accounts: accountCount,
  ticketsPerAccount,
  rate,
  seconds,
  noisy: {
    events: noisyEventCount,
    reports: noisyReportCount,
    requestsPerMinute: NOISY_REQUESTS_PER_MINUTE,
  },
};

runBenchmark({
  label: 'tenants bench',
  scenario,
  main: async (run) => {
    const loadAverageBefore = loadavg()[0]!;
    const { targets, skipped } = await measureEachTarget({
      targetNames,
      targetsVariable: 'BENCH_TENANTS_TARGETS',
      timeLimitMs,
      run,
      measureTarget,
    });
    if (Object.keys(targets).length === 0)
      run.undecided(`no target measured: ${JSON.stringify(skipped)}`);
    const goals = Object.assign(
      {},
      ...Object.entries(targets).map(([n, t]) => goalsOf(n, t)),
    ) as Record<string, { value: number | null; goal: string; met: boolean }>;
    const unmet = Object.entries(goals)
      .filter(([, g]) => !g.met)
      .map(([name]) => name);
    console.log(
      `tenants: ${accountCount} accounts (${ticketsPerAccount} linked tickets each), ${rate} events/s for ${seconds} s per phase; ` +
        `${cpus().length} CPUs, load average ${loadAverageBefore.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at the end`,
    );
    for (const [name, t] of Object.entries(targets)) console.log(summary(name, t));
    for (const [name, reason] of Object.entries(skipped))
      console.log(`${name}: skipped (${reason})`);
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

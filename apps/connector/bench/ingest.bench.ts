// Ingest benchmark: throughput and acknowledgement latency of
// POST /webhooks/incident at 50 concurrent connections, against a bare Express route that only
// verifies the HMAC, in the same run on the same machine. The connector is measured on
// PostgreSQL and on PGlite; each server runs in its own child process. Afterwards every
// acknowledged event must have exactly one receipt and one job, or the benchmark fails (exit 1).
// A server under test starts, and stops, for as long as it uses CPU time (child-progress.ts); a
// run that cannot finish prints its JSON line all the same, `verdict` undecided (exit 2).
//
// Environment: BENCH_SECONDS (10, per target, split into BENCH_ROUNDS (5) interleaved runs),
// BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (50),
// BENCH_TARGETS (baseline,postgres,pglite), DATABASE_URL (postgres://postgres@127.0.0.1:5432/test;
// a fresh database is created and dropped), BENCH_POOL_RATE (5000: events per second signed
// ahead for the warm-up; the measured runs sign twice the rate each target reached).
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import {
  progress,
  runBenchmark,
  waitingFor,
  type BenchmarkRun,
} from '../../../scripts/bench-support';
import { INCIDENT_EVENT_QUEUE } from '../src/jobs/incident-event-job';
import {
  createPgliteBenchDatabase,
  createPostgresBenchDatabase,
  type BenchDatabase,
} from './bench-database';
import type { TServerConfig } from './ipc-messages';
import { formatTable, type Goal, type TargetFigures } from './report';
import { mergeRuns } from './load-figures';
import { runLoad, type LoadRun } from './run-load';
import { startServer, type ServerUnderTest } from './server-process';
import { createSignedEventPool, type SignedEventPool } from './signed-event-pool';
import { countIngested } from './verify-ingest';

const ACCOUNT_ID = '00000000-0000-4000-8000-00000000be9c';
const SUBSCRIPTION_ID = 'bench-subscription';
const BODY_BYTES = 1024;
const GOAL_RATIO = 0.5;
const GOAL_P99_MS = 100;

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

const seconds = envNumber('BENCH_SECONDS', 10);
const warmupSeconds = envNumber('BENCH_WARMUP_SECONDS', 2);
const connections = envNumber('BENCH_CONNECTIONS', 50);
const rounds = Math.round(envNumber('BENCH_ROUNDS', 5));
const poolRate = envNumber('BENCH_POOL_RATE', 5000);
// Events are signed just before each run; a run must end well inside the 300 s tolerance.
if (seconds / rounds + warmupSeconds > 240) {
  throw new Error('each run must stay under 240 s: raise BENCH_ROUNDS or lower BENCH_SECONDS');
}
const adminUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const targetNames = (process.env.BENCH_TARGETS ?? 'baseline,postgres,pglite')
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const runId = randomBytes(4).toString('hex');
const secret = `whsec_bench_${randomBytes(16).toString('hex')}`;
const path = `/webhooks/incident?subscription=${SUBSCRIPTION_ID}`;
const startedAt = Date.now();
const log = progress.log;

interface Target {
  name: string;
  server: ServerUnderTest;
  db: BenchDatabase | null;
  events: SignedEventPool;
  warmupKeys: string[];
  warmupRate: number;
  runs: LoadRun[];
}

async function startTarget(name: string, cleanups: Array<() => Promise<void>>): Promise<Target> {
  log(`${name}: starting the server under test`);
  let db: BenchDatabase | null = null;
  let config: TServerConfig = { kind: 'baseline', secret };
  if (name === 'postgres' || name === 'pglite') {
    db =
      name === 'postgres'
        ? await createPostgresBenchDatabase(adminUrl)
        : createPgliteBenchDatabase();
    const opened = db;
    cleanups.push(() => opened.dispose());
    config = {
      kind: 'connector',
      secret,
      accountId: ACCOUNT_ID,
      subscriptionId: SUBSCRIPTION_ID,
      backend: name,
      ...db.location,
    };
  } else if (name !== 'baseline') {
    throw new Error(`unknown target ${name} in BENCH_TARGETS`);
  }
  const server = await startServer(config);
  cleanups.push(async () => server.kill());
  const label = name === 'baseline' ? name : `connector-${name}`;
  const events = createSignedEventPool({
    prefix: `${runId}_${name}`,
    accountId: ACCOUNT_ID,
    secret,
    bodyBytes: BODY_BYTES,
    incidents: 1000,
  });
  return { name: label, server, db, events, warmupKeys: [], warmupRate: 0, runs: [] };
}

async function load(target: Target, runSeconds: number): Promise<LoadRun> {
  // Sign ahead about twice what this target managed so far (the warm-up: BENCH_POOL_RATE/s);
  // should that run out, the rest is signed on the fly and counted as signedLate.
  const best = Math.max(
    target.warmupRate,
    ...target.runs.map((r) => r.acknowledgedKeys.length / r.seconds),
  );
  const rate = best === 0 ? poolRate : Math.max(500, 2 * best);
  target.events.prepare(Math.ceil(runSeconds * rate));
  const running = progress.doing(
    () => `${target.name}: a ${runSeconds} s run at ${connections} connections`,
  );
  try {
    return await runLoad({
      url: target.server.url,
      path,
      connections,
      seconds: runSeconds,
      events: target.events,
    });
  } finally {
    running();
  }
}

/** Stops the server (it drains and closes its database), then counts what it stored. */
async function finish(target: Target): Promise<TargetFigures> {
  const server = await target.server.stop();
  const figures: TargetFigures = {
    ...mergeRuns(target.runs),
    server,
    signedLate: target.events.signedLate,
  };
  if (target.db) {
    const db = target.db;
    log(`${target.name}: counting receipts and jobs`);
    figures.ingest = await waitingFor(`${target.name}: the count of receipts and jobs`, () =>
      countIngested(db, INCIDENT_EVENT_QUEUE, [
        ...target.warmupKeys,
        ...target.runs.flatMap((r) => r.acknowledgedKeys),
      ]),
    );
  }
  return figures;
}

/**
 * The targets are measured in interleaved rounds (rotating which goes first), so a change in
 * the machine's background load during the run weighs on every target alike.
 */
async function measureAll(cleanups: Array<() => Promise<void>>, run: BenchmarkRun) {
  // Started side by side: setting up a fresh database is the slow part, and nothing is measured yet.
  // allSettled: on a failure, every server that did start has registered its cleanup first.
  const started = await Promise.allSettled(targetNames.map((name) => startTarget(name, cleanups)));
  const targets = started.map((result) => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  });
  for (const target of targets)
    run.measured(target.name, () => (target.runs.length > 0 ? mergeRuns(target.runs) : {}));
  run.stage('warm-up');
  for (const target of targets) {
    log(`${target.name}: warm-up ${warmupSeconds} s`);
    const warmup = await load(target, warmupSeconds);
    target.warmupKeys = warmup.acknowledgedKeys;
    target.warmupRate = warmup.acknowledgedKeys.length / warmup.seconds;
  }
  const roundSeconds = seconds / rounds;
  for (let round = 0; round < rounds; round += 1) {
    run.stage(`round ${round + 1} of ${rounds}`);
    log(`round ${round + 1}/${rounds}: ${roundSeconds} s per target`);
    for (let i = 0; i < targets.length; i += 1) {
      const target = targets[(round + i) % targets.length]!;
      target.server.resume();
      target.runs.push(await load(target, roundSeconds));
      target.server.pause();
    }
  }
  run.stage('stopping the servers, counting what they stored');
  const figures: Record<string, TargetFigures> = {};
  for (const target of targets) {
    figures[target.name] = await finish(target);
    run.measured(target.name, figures[target.name]);
  }
  return figures;
}

function ratio(target: TargetFigures | undefined, baseline: TargetFigures | undefined) {
  if (!target || !baseline || baseline.acknowledgedPerSecond === 0) return null;
  return Number((target.acknowledgedPerSecond / baseline.acknowledgedPerSecond).toFixed(3));
}

async function measureWithCleanup(run: BenchmarkRun): Promise<Record<string, TargetFigures>> {
  const cleanups: Array<() => Promise<void>> = [];
  try {
    return await measureAll(cleanups, run);
  } finally {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) => console.error('cleanup failed:', error));
    }
  }
}

const scenario = { connections, seconds, rounds, warmupSeconds, bodyBytes: BODY_BYTES };

async function main(run: BenchmarkRun) {
  const loadAverageBefore = loadavg()[0]!;
  run.stage('starting the servers under test');
  const targets = await measureWithCleanup(run);
  const baseline = targets.baseline;
  const postgres = targets['connector-postgres'];
  const pglite = targets['connector-pglite'];
  const ratios = { postgres: ratio(postgres, baseline), pglite: ratio(pglite, baseline) };
  const goals: Record<string, Goal> = {
    postgresThroughputRatio: {
      value: ratios.postgres,
      goal: `>= ${GOAL_RATIO}`,
      met: ratios.postgres !== null && ratios.postgres >= GOAL_RATIO,
    },
    postgresP99Ms: {
      value: postgres?.p99Ms ?? null,
      goal: `< ${GOAL_P99_MS}`,
      met: postgres !== undefined && postgres.p99Ms < GOAL_P99_MS,
    },
    pgliteP99Ms: {
      value: pglite?.p99Ms ?? null,
      goal: `< ${GOAL_P99_MS}`,
      met: pglite !== undefined && pglite.p99Ms < GOAL_P99_MS,
    },
  };

  // Missed goals are reported, not failed; lost data or requests the server refused as bad are.
  const failures: string[] = [];
  for (const [name, t] of Object.entries(targets)) {
    if (t.acknowledged === 0) failures.push(`${name}: no request was acknowledged`);
    if (t.status4xx > 0) failures.push(`${name}: ${t.status4xx} requests answered 4xx`);
    if (t.ingest && !t.ingest.lossless) {
      failures.push(`${name}: data loss or duplication: ${JSON.stringify(t.ingest)}`);
    }
  }

  console.log(
    `ingest: ${connections} connections, ${seconds} s per target in ${rounds} interleaved runs ` +
      `after ${warmupSeconds} s warm-up, ` +
      `${BODY_BYTES} B signed events, ${cpus().length} CPUs, load average ${loadAverageBefore.toFixed(1)} at start`,
  );
  console.log(formatTable(targets, ratios, goals));
  if (failures.length > 0) console.log(`FAILED: ${failures.join('; ')}`);
  const met = failures.length === 0 && Object.values(goals).every((g) => g.met);
  return {
    verdict: met ? ('met' as const) : ('not met' as const),
    exitCode: failures.length > 0 ? 1 : 0,
    figures: {
      ...scenario,
      cpus: cpus().length,
      loadAverage1m: { start: loadAverageBefore, end: loadavg()[0] },
      wallSeconds: Number(((Date.now() - startedAt) / 1000).toFixed(1)),
      targets,
      ratios,
      goals,
      failures,
    },
  };
}

runBenchmark({ label: 'ingest bench', scenario, main });

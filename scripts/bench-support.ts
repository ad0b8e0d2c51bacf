// The benchmark side of `npm run bench` (scripts/bench.ts). On a loaded machine a benchmark is slow,
// not wrong: it says what it is doing at least every 10 s, tries its own HTTP calls again when the
// connection failed (counting each retry), and always ends with its JSON line, whose `verdict` is
// "met" or "not met" (its goals), "measured" (it has none), or "undecided" with the reason and
// what it measured so far.
import { cpus, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';

// --- progress lines

const PROGRESS_EVERY_MS = 10_000;
/** A timer on a loaded machine fires late: the line is due a little early. */
const PROGRESS_SLACK_MS = 1_500;

let progressLabel = 'bench';
let progressStartedAt = Date.now();
/** When the last line was printed (ms since the epoch), shared with the watchdog's thread. */
const lastLineAt = new Float64Array(new SharedArrayBuffer(8));
/** What the run is doing, the latest last: waits that overlap each end their own. */
const activities: (() => string)[] = [];
let watchdog: Worker | undefined;

function print(message: string): void {
  const elapsed = ((Date.now() - progressStartedAt) / 1000).toFixed(1);
  console.error(`[${progressLabel} +${elapsed}s] ${message}`);
  lastLineAt[0] = Date.now();
}

function activityLine(): string {
  const retried = retryCounts().retried;
  const activity = activities.at(-1)?.() ?? 'working';
  return `${activity}${retried > 0 ? `; ${retried} calls retried so far` : ''}`;
}

/**
 * The line of a main thread busy with synchronous work (the embedded database's WebAssembly in this
 * process, a defang measurement), when no timer of its can fire: a thread of its own prints the
 * last activity the main thread told it. It writes to stderr itself, as a worker's console output
 * goes through the main thread.
 */
const WATCHDOG_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const lastLineAt = new Float64Array(workerData.lastLineAt);
let activity = 'working';
parentPort.on('message', (line) => { activity = line; });
setInterval(() => {
  const now = Date.now();
  if (now - lastLineAt[0] < workerData.everyMs) return;
  const elapsed = ((now - workerData.startedAt) / 1000).toFixed(1);
  const busy = Math.round((now - lastLineAt[0]) / 1000);
  lastLineAt[0] = now;
  const line = '[' + workerData.label + ' +' + elapsed + 's] ' + activity;
  writeSync(2, line + ' (no line for ' + busy + ' s: busy)\\n');
}, 1000);
`;

export const progress = {
  /** A line now, on stderr (the benchmark's stdout ends with its JSON line). */
  log: print,
  /**
   * What the run is doing, read again for each progress line printed while nothing else is, until
   * the returned function ends it.
   */
  doing(describe: () => string): () => void {
    activities.push(describe);
    watchdog?.postMessage(activityLine());
    return () => {
      const index = activities.lastIndexOf(describe);
      if (index >= 0) activities.splice(index, 1);
    };
  },
};

/** Each second: the activity's line if one is due, and the activity told to the watchdog. */
function beat(): void {
  const line = activityLine();
  watchdog?.postMessage(line);
  if (Date.now() - lastLineAt[0]! >= PROGRESS_EVERY_MS - PROGRESS_SLACK_MS) print(line);
}

function startProgress(label: string): () => void {
  progressLabel = label;
  progressStartedAt = Date.now();
  lastLineAt[0] = Date.now();
  watchdog = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    workerData: {
      label,
      startedAt: progressStartedAt,
      // its own check runs each second: from a second early, a line is never later than 10 s
      everyMs: PROGRESS_EVERY_MS - 1_000,
      lastLineAt: lastLineAt.buffer,
    },
  });
  watchdog.unref();
  const timer = setInterval(beat, 1_000);
  timer.unref();
  return () => {
    clearInterval(timer);
    void watchdog?.terminate();
  };
}

// --- retries of transient failures

/** Codes of a connection that failed, where no server answered: the call is worth another try. */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const TRANSIENT_MESSAGES = ['socket hang up', 'other side closed', 'fetch failed'];
const BACKOFF_MS = [250, 500, 1_000, 2_000, 4_000];
/** A server still unreachable this long after the call's first failure is down, not restarting. */
const GIVE_UP_AFTER_MS = 180_000;

const counts: RetryCounts = { retried: 0, gaveUp: 0, byCause: {}, byCall: {} };

/** A 503 with Retry-After: the server asks for the call again later. */
class RetryLater extends Error {
  constructor(
    readonly waitMs: number,
    what: string,
  ) {
    super(`${what} answered 503 (Retry-After ${waitMs / 1000} s)`);
  }
}

/** The cause that makes `error` transient (its code, or its message), or null. */
export function transientCause(error: unknown): string | null {
  if (error instanceof RetryLater) return '503 Retry-After';
  let message: string | null = null;
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return code;
    const text = e.message;
    message ??= TRANSIENT_MESSAGES.find((m) => text.includes(m)) ?? null;
  }
  return message;
}

/** Counts one call tried again (`call` names what, `cause` why): the figures print the counts. */
export function countRetry(call: string, cause: string): void {
  counts.retried += 1;
  counts.byCause[cause] = (counts.byCause[cause] ?? 0) + 1;
  counts.byCall[call] = (counts.byCall[call] ?? 0) + 1;
}

export interface RetryCounts {
  /** Calls tried again, in all, by cause and by what was called. */
  retried: number;
  byCause: Record<string, number>;
  byCall: Record<string, number>;
  /** Calls still failing after GIVE_UP_AFTER_MS: their failure was thrown. */
  gaveUp: number;
}

export function retryCounts(): RetryCounts {
  return { ...counts, byCause: { ...counts.byCause }, byCall: { ...counts.byCall } };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function backoffMs(attempt: number, error: unknown): number {
  const base = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length) - 1]!;
  const jittered = base * (0.75 + Math.random() / 2);
  return error instanceof RetryLater ? Math.max(error.waitMs, jittered) : jittered;
}

/**
 * `attempt` (given its number, from 1) until it succeeds; a transient failure is counted under
 * `call` and tried again after a backoff, any other failure is thrown at once.
 */
export async function withRetries<T>(call: string, attempt: (n: number) => Promise<T>): Promise<T> {
  let firstFailure: number | undefined;
  for (let n = 1; ; n += 1) {
    try {
      return await attempt(n);
    } catch (error) {
      const cause = transientCause(error);
      if (cause === null) throw error;
      firstFailure ??= Date.now();
      if (Date.now() - firstFailure > GIVE_UP_AFTER_MS) {
        counts.gaveUp += 1;
        throw error;
      }
      countRetry(call, cause);
      await sleep(backoffMs(n, error));
    }
  }
}

/** fetch, tried again on a failed connection or a 503 with Retry-After. */
export function benchFetch(call: string, url: string, init?: RequestInit): Promise<Response> {
  return withRetries(call, async () => {
    const response = await fetch(url, init);
    const retryAfter = response.headers.get('retry-after');
    if (response.status !== 503 || retryAfter === null) return response;
    await response.arrayBuffer().catch(() => undefined);
    throw new RetryLater(
      Math.max(1, Number(retryAfter) || 1) * 1000,
      `${init?.method ?? 'GET'} ${url}`,
    );
  });
}

/**
 * The same object, each method returning a promise tried again on a transient failure (counted
 * under `call`). For a client of HTTP calls, such as the sandboxes' control APIs.
 */
export function withRetriedMethods<T extends object>(target: T, call: string): T {
  const wrapped = Object.entries(target).map(([name, value]) => {
    if (typeof value !== 'function') return [name, value];
    const method = value as (...args: unknown[]) => unknown;
    return [
      name,
      (...args: unknown[]) => {
        const first = method(...args);
        if (!(first instanceof Promise)) return first;
        return withRetries(call, (n) => (n === 1 ? first : (method(...args) as Promise<unknown>)));
      },
    ];
  });
  return Object.fromEntries(wrapped) as T;
}

// --- the closing JSON line

/** `measured`: the figures are complete, for a benchmark that has no goal to judge them by. */
export type Verdict = 'met' | 'not met' | 'measured' | 'undecided';

export interface BenchmarkRun {
  /** The stage the run is in: an undecided run says where it stopped. */
  stage(name: string): void;
  /** What the run measured under `key`, for an undecided run's `measured` (a function is read then). */
  measured(key: string, figures: unknown): void;
  /** Ends the run now as undecided (after the caller's own cleanup). */
  undecided(reason: string): never;
}

export interface BenchmarkEnd {
  verdict: Exclude<Verdict, 'undecided'>;
  figures: Record<string, unknown>;
  /** Default 0; a benchmark whose figures show a failure (data lost) exits 1. */
  exitCode?: number;
}

/** An undecided run's reason: the error's first lines, not its stack or a child's whole output. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const head = message.split('\n--- ')[0]!.split('\n').slice(0, 3).join(' / ');
  return head.length > 600 ? `${head.slice(0, 600)}…` : head;
}

/**
 * Runs a benchmark's `main` and prints its JSON line last: the figures with `verdict` and
 * `retries`. When main fails (or calls `undecided`), the line of an undecided run instead: the
 * reason, the stage it stopped in and what it measured so far. Exit code: main's, or 2 undecided.
 */
export function runBenchmark(input: {
  label: string;
  /** Known before anything is measured (the settings): in either JSON line. */
  scenario: Record<string, unknown>;
  main: (run: BenchmarkRun) => Promise<BenchmarkEnd>;
}): void {
  const stopProgress = startProgress(input.label);
  const startedAt = Date.now();
  const loadAverageAtStart = loadavg()[0]!;
  const measured = new Map<string, unknown>();
  let stage = 'starting';
  progress.doing(() => stage);
  function finish(line: Record<string, unknown>, exitCode: number): never {
    stopProgress();
    console.log(JSON.stringify({ ...line, retries: retryCounts() }));
    process.exit(exitCode);
  }
  function undecided(reason: string): never {
    print(`undecided, in stage "${stage}": ${reason}`);
    finish(
      {
        verdict: 'undecided',
        reason,
        stage,
        scenario: input.scenario,
        measured: readMeasured(measured),
        cpus: cpus().length,
        loadAverage1m: { start: loadAverageAtStart, end: loadavg()[0] },
        wallSeconds: Number(((Date.now() - startedAt) / 1000).toFixed(1)),
      },
      2,
    );
  }
  const run: BenchmarkRun = {
    stage: (name) => {
      stage = name;
    },
    measured: (key, figures) => measured.set(key, figures),
    undecided,
  };
  input.main(run).then(
    (end) => finish({ verdict: end.verdict, ...end.figures }, end.exitCode ?? 0),
    (error: unknown) => {
      console.error(`${input.label}: ${error instanceof Error ? error.message : String(error)}`);
      undecided(reasonOf(error));
    },
  );
}

function readMeasured(measured: Map<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of measured) {
    try {
      out[key] = typeof value === 'function' ? (value as () => unknown)() : value;
    } catch (error) {
      out[key] = { unreadable: String(error) };
    }
  }
  return out;
}

// --- waits that follow progress

/** Awaits `work`, the progress lines naming what it waits for and for how long so far. */
export async function waitingFor<T>(what: string, work: () => Promise<T>): Promise<T> {
  const since = Date.now();
  const restore = progress.doing(
    () => `waiting for ${what}, ${Math.round((Date.now() - since) / 1000)} s so far`,
  );
  try {
    return await work();
  } finally {
    restore();
  }
}

/**
 * Polls `probe` until it says done (true); false once its `count` (what is done so far) has not
 * moved for `stallMs`. The activity line names `what` and the count.
 */
export async function whileProgressing(input: {
  what: string;
  probe: () => Promise<{ done: boolean; count: number; of?: number }>;
  stallMs: number;
  intervalMs?: number;
}): Promise<boolean> {
  let count = -1;
  let total: number | undefined;
  let movedAt = Date.now();
  const restore = progress.doing(() => {
    const still = Math.round((Date.now() - movedAt) / 1000);
    const of = total === undefined ? '' : ` of ${total}`;
    return `${input.what}: ${Math.max(0, count)}${of} so far${still >= 10 ? `, none new for ${still} s` : ''}`;
  });
  try {
    for (;;) {
      const state = await input.probe();
      total = state.of;
      if (state.done) return true;
      if (state.count !== count) {
        count = state.count;
        movedAt = Date.now();
      } else if (Date.now() - movedAt > input.stallMs) {
        return false;
      }
      await sleep(input.intervalMs ?? 250);
    }
  } finally {
    restore();
  }
}

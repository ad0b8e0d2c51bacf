// Runs every workspace benchmark (`apps/*/bench`, `packages/*/bench`, `e2e/bench`: `*.bench.ts`) in its
// own process, one after another so they do not compete for the two cores, and writes one report.
// Each benchmark prints a JSON object on its last line of output: its figures, with ratios against
// a baseline it measured in the same run, and its `verdict` (scripts/bench-support.ts). That line
// is kept whatever the exit code; a benchmark that ended without one is reported undecided, with
// the end of what it printed on stderr.
//
//   npm run bench [-- <part of a benchmark's path> [--<option>...]]
// Options after the name are passed to each benchmark run (e.g. `throughput --cpu-prof`).
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function benchFiles(): string[] {
  const workspaces = ['apps', 'packages'].flatMap((group) =>
    readdirSync(path.join(root, group)).map((name) => path.join(root, group, name)),
  );
  const files: string[] = [];
  for (const workspace of [...workspaces, path.join(root, 'e2e')]) {
    const dir = path.join(workspace, 'bench');
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).sort()) {
      if (file.endsWith('.bench.ts')) files.push(path.join(dir, file));
    }
  }
  return files;
}

const STDERR_TAIL_LINES = 20;

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  lastLine: string;
  stderrTail: string[];
}

/** Runs one benchmark, its output shown as it comes, but for its last stdout line (kept). */
function runBenchmarkFile(file: string, args: readonly string[]): Promise<Finished> {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: path.dirname(path.dirname(file)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let held: string | undefined;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (held !== undefined) console.log(held);
    held = line;
  });
  const stderrTail: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => {
    console.error(line);
    stderrTail.push(line);
    if (stderrTail.length > STDERR_TAIL_LINES) stderrTail.shift();
  });
  return new Promise((resolve) =>
    child.once('close', (code, signal) =>
      resolve({ code, signal, lastLine: held ?? '', stderrTail }),
    ),
  );
}

/** The benchmark's JSON line, or an undecided result saying how it ended without one. */
function resultOf(run: Finished): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(run.lastLine);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // not JSON: the benchmark died before its last line
  }
  return {
    verdict: 'undecided',
    reason: `exited ${run.code ?? run.signal} without its JSON line`,
    stderrTail: run.stderrTail,
  };
}

const args = process.argv.slice(2);
// the first argument that is not an option narrows the run; the options go to each benchmark
const only = args.find((arg) => !arg.startsWith('--'));
const benchArgs = args.filter((arg) => arg.startsWith('--'));
const results: Record<string, unknown> = {};
const verdicts: string[] = [];
let failed = false;
// matched against the path inside the repository, so a checkout's own folder names never match
for (const file of benchFiles().filter((f) => !only || path.relative(root, f).includes(only))) {
  const name = path.relative(root, file);
  console.log(`\n--- ${name}`);
  const run = await runBenchmarkFile(file, benchArgs);
  const result = resultOf(run);
  results[name] = result;
  const verdict = typeof result.verdict === 'string' ? result.verdict : 'no verdict';
  verdicts.push(verdict);
  console.log(JSON.stringify(result, null, 2));
  if (run.code !== 0 || verdict === 'undecided') {
    failed = true;
    console.error(`${name}: exited ${run.code ?? run.signal}, verdict ${verdict}`);
  }
}

mkdirSync(path.join(root, 'bench-results'), { recursive: true });
const reportPath = path.join(root, 'bench-results', 'report.json');
writeFileSync(
  reportPath,
  JSON.stringify({ at: new Date().toISOString(), node: process.version, results }, null, 2),
);
const tally = Object.entries(
  verdicts.reduce<Record<string, number>>((all, v) => ({ ...all, [v]: (all[v] ?? 0) + 1 }), {}),
).map(([verdict, count]) => `${count} ${verdict}`);
console.log(
  `\n${Object.keys(results).length} benchmark(s) (${tally.join(', ') || 'none'}); report written to ${path.relative(root, reportPath)}`,
);
process.exit(failed ? 1 : 0);

// npm run test:chaos (full) and npm run test:chaos:ci (CHAOS_PROFILE=ci, bounded): runs the chaos
// test files, the sidebar's hostile-rendering test by reference, then adds their figures up into
// report/report.json and report/report.md. Exits non-zero when anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderMarkdown, type ChaosReport } from '../src/report';

const chaosDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(chaosDir, '..');
const reportDir = path.join(chaosDir, 'report');
const partsDir = path.join(reportDir, 'parts');

const profile = process.env.CHAOS_PROFILE === 'ci' ? 'ci' : 'full';
const fuzzCount = process.env.CHAOS_FUZZ_COUNT ?? (profile === 'ci' ? '2000' : '10000');
const seed = process.env.CHAOS_SEED ?? '20261121';

rmSync(partsDir, { recursive: true, force: true });
mkdirSync(partsDir, { recursive: true });

function run(
  name: string,
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
) {
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  const step = { name, ok: result.status === 0, durationMs: Date.now() - started };
  console.log(
    `chaos: ${name} ${step.ok ? 'passed' : 'FAILED'} in ${(step.durationMs / 1000).toFixed(1)} s`,
  );
  return step;
}

function backendsToRun(): string[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * The security test's cross-account cases include the admin page, which the connector serves from
 * its build; REUSE_BUILD=1 (CI, which has built it first) takes that build as it is.
 */
function adminPageBuild() {
  if (
    process.env.REUSE_BUILD === '1' &&
    existsSync(path.join(repoRoot, 'apps/admin/dist/index.html'))
  )
    return { name: 'admin page build (REUSE_BUILD=1: as built)', ok: true, durationMs: 0 };
  return run(
    'admin page build',
    'npm',
    ['run', 'build', '--silent', '-w', '@incident-desk/admin'],
    repoRoot,
  );
}

const started = Date.now();
const steps = [
  adminPageBuild(),
  run(
    'chaos tests (fuzz, security properties)',
    'npx',
    [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${path.join(reportDir, 'vitest.json')}`,
    ],
    chaosDir,
    { CHAOS_FUZZ_COUNT: fuzzCount, CHAOS_SEED: seed },
  ),
  // Section 1, the soak: small in CI, larger in the full run; each size can be set with SOAK_*.
  ...backendsToRun().map((backend) =>
    run(`soak on ${backend}`, 'npx', ['tsx', 'scripts/soak.ts'], chaosDir, {
      SOAK_BACKEND: backend,
      SOAK_TICKETS: process.env.SOAK_TICKETS ?? (profile === 'ci' ? '6' : '50'),
      // Each move delivers 2-3 events: 4,400 moves and the replies' echoes make about 10,000.
      SOAK_ADVANCES: process.env.SOAK_ADVANCES ?? (profile === 'ci' ? '60' : '4400'),
      SOAK_RESTARTS: process.env.SOAK_RESTARTS ?? (profile === 'ci' ? '1' : '3'),
      // Bursts (401, 429, latency) per move; the 5xx and drop rates stand on their own.
      SOAK_FAULT_RATE: process.env.SOAK_FAULT_RATE ?? (profile === 'ci' ? '0.125' : '0.05'),
      SOAK_KILLS: process.env.SOAK_KILLS ?? (profile === 'ci' ? '1' : '3'),
      SOAK_TICKET_WEBHOOKS: process.env.SOAK_TICKET_WEBHOOKS ?? (profile === 'ci' ? '60' : '2000'),
      SOAK_REPORTS: process.env.SOAK_REPORTS ?? (profile === 'ci' ? '6' : '40'),
      // Paced below what the worker applies, so the latency measured is not a backlog's wait.
      SOAK_PACE_MS: process.env.SOAK_PACE_MS ?? (profile === 'ci' ? '0' : '100'),
      SOAK_SEED: seed,
    }),
  ),
  // The sidebar renders hostile strings inertly: its own jsdom test, run here by reference.
  run(
    'sidebar hostile rendering (apps/sidebar/test/hostile.test.tsx)',
    'npx',
    ['vitest', 'run', '--project', 'sidebar', 'test/hostile.test.tsx'],
    repoRoot,
  ),
];

const parts: Record<string, unknown> = {};
if (existsSync(partsDir)) {
  for (const file of readdirSync(partsDir).sort()) {
    parts[file.replace(/\.json$/, '')] = JSON.parse(
      readFileSync(path.join(partsDir, file), 'utf8'),
    );
  }
}
const tests = existsSync(path.join(reportDir, 'vitest.json'))
  ? (
      JSON.parse(readFileSync(path.join(reportDir, 'vitest.json'), 'utf8')) as {
        testResults: {
          assertionResults: { fullName: string; status: string; duration?: number }[];
        }[];
      }
    ).testResults.flatMap((file) =>
      file.assertionResults.map((t) => ({
        name: t.fullName,
        status: t.status,
        durationMs: Math.round(t.duration ?? 0),
      })),
    )
  : [];

const report: ChaosReport = {
  generatedAt: new Date().toISOString(),
  profile,
  seed: Number(seed),
  fuzzCountPerBackend: Number(fuzzCount),
  backends: backendsToRun(),
  durationMs: Date.now() - started,
  steps,
  tests,
  parts,
};
writeFileSync(path.join(reportDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(path.join(reportDir, 'report.md'), renderMarkdown(report));
console.log(`chaos: report in ${path.relative(repoRoot, reportDir)}/report.{json,md}`);
process.exit(steps.every((s) => s.ok) ? 0 : 1);

// The targets a many-account benchmark measures in turn (PGlite, PostgreSQL when reachable), each
// cleaned up after its run, all under one time limit: past it the run stops, cleans up and is
// undecided.
import { progress, type BenchmarkRun } from '../../../scripts/bench-support';
import type { Backend } from '../test/support/test-database';
import { postgresReachable } from './bench-database';
import { CleanupStack } from './cleanup-stack';

export async function measureEachTarget<T>(options: {
  targetNames: readonly string[];
  /** The environment variable naming the targets, for the error about an unknown one. */
  targetsVariable: string;
  timeLimitMs: number;
  run: BenchmarkRun;
  measureTarget: (target: Backend, cleanups: CleanupStack, run: BenchmarkRun) => Promise<T>;
}): Promise<{ targets: Record<string, T>; skipped: Record<string, string> }> {
  const { run } = options;
  const cleanups = new CleanupStack();
  const disarm = cleanups.guard(options.timeLimitMs, (why) => run.undecided(why));
  const targets: Record<string, T> = {};
  const skipped: Record<string, string> = {};
  try {
    for (const name of options.targetNames) {
      if (name !== 'pglite' && name !== 'postgres')
        throw new Error(`unknown target ${name} in ${options.targetsVariable}`);
      if (name === 'postgres') {
        const problem = await postgresReachable();
        if (problem) {
          skipped[name] = `PostgreSQL not reachable: ${problem}`;
          progress.log(skipped[name]);
          continue;
        }
      }
      try {
        targets[name] = await options.measureTarget(name, cleanups, run);
        run.measured(name, targets[name]);
      } finally {
        await cleanups.run();
      }
    }
  } finally {
    disarm();
  }
  return { targets, skipped };
}

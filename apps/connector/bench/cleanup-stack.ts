// What a benchmark started, undone however it ends: at the end of a target, when the run's time
// limit passes, or on SIGINT / SIGTERM (then the guard's `stopped` ends the run). Child processes
// it registers are also SIGKILLed when this process exits without running the cleanups.
import { progress } from '../../../scripts/bench-support';

const STEP_TIMEOUT_MS = 60_000;

export class CleanupStack {
  readonly #steps: { name: string; run: () => Promise<void> }[] = [];
  readonly #pids = new Set<number>();

  constructor() {
    process.on('exit', () => {
      for (const pid of this.#pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    });
  }

  /** Runs at cleanup, the last pushed first. */
  push(name: string, run: () => Promise<void>): void {
    this.#steps.push({ name, run });
  }

  /** A child process that must not outlive this one. */
  trackPid(pid: number): void {
    this.#pids.add(pid);
  }

  untrackPid(pid: number): void {
    this.#pids.delete(pid);
  }

  /** Every step, each bounded in time; one that fails is reported and the others still run. */
  async run(): Promise<void> {
    for (let step = this.#steps.pop(); step; step = this.#steps.pop()) {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          step.run(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('timed out')), STEP_TIMEOUT_MS);
          }),
        ]);
      } catch (error) {
        console.error(`cleanup "${step.name}" failed: ${String(error)}`);
      } finally {
        clearTimeout(timer);
      }
    }
  }

  /**
   * After `limitMs`, or on SIGINT / SIGTERM: cleans up, then calls `stopped` with why (it ends the
   * process; exit 1 if it returns). Returns a disarm.
   */
  guard(limitMs: number, stopped: (why: string) => void): () => void {
    const stop = (why: string) => {
      progress.log(`${why}: cleaning up`);
      void this.run().finally(() => {
        stopped(why);
        process.exit(1);
      });
    };
    const timer = setTimeout(() => stop(`time limit of ${limitMs / 1000} s reached`), limitMs);
    const onSignal = (signal: NodeJS.Signals) => stop(signal);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    return () => {
      clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
  }
}

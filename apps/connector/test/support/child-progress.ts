// A child process (a connector, a test's helper process) takes what it takes on a loaded machine:
// it is waited for while it prints or uses CPU time (npm start's reading of /proc).
import { cpuTicks } from '../../../../scripts/start/cpu-ticks';

/** A child that neither printed nor used CPU time this long is stuck, not slow. */
export const CHILD_STALL_MS = 300_000;

/** A progress reading (eventually's `progress`) of a child: its CPU time and how much it printed. */
export function childProgress(pid: number, output: () => string = () => ''): () => string {
  return () => `${cpuTicks(pid)} ${output().length}`;
}

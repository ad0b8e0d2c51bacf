// Merges the runs of one target (interleaved with the other targets' runs) into its figures.
import type { LoadRun } from './run-load';

export interface LoadFigures {
  runs: number;
  seconds: number;
  responses: number;
  responsesPerSecond: number;
  acknowledged: number;
  acknowledgedPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  status4xx: number;
  status5xx: number;
  errors: number;
  timeouts: number;
  loadGeneratorEventLoopUtilization: number;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const sum = (runs: LoadRun[], pick: (run: LoadRun) => number) =>
  runs.reduce((total, run) => total + pick(run), 0);

export function mergeRuns(runs: LoadRun[]): LoadFigures {
  const seconds = sum(runs, (r) => r.seconds);
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const acknowledged = sum(runs, (r) => r.acknowledgedKeys.length);
  const status4xx = sum(runs, (r) => r.status4xx);
  const status5xx = sum(runs, (r) => r.status5xx);
  return {
    runs: runs.length,
    seconds: round(seconds, 2),
    responses: latencies.length,
    responsesPerSecond: round(latencies.length / seconds),
    acknowledged,
    acknowledgedPerSecond: round(acknowledged / seconds),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(latencies.at(-1) ?? 0),
    non2xx: status4xx + status5xx + sum(runs, (r) => r.otherStatus),
    status4xx,
    status5xx,
    errors: sum(runs, (r) => r.errors),
    timeouts: sum(runs, (r) => r.timeouts),
    loadGeneratorEventLoopUtilization: round(
      sum(runs, (r) => r.loadGeneratorEventLoopUtilization * r.seconds) / seconds,
      3,
    ),
  };
}

// Open-loop load at a fixed rate: request i starts at start + i / rate whatever happened to the
// earlier ones, so a slow system meets the same arrivals a real sender would produce.

export interface SteadyRun {
  /** How far behind schedule the worst start was (the load generator's own lag). */
  maxStartLagMs: number;
}

export async function runAtSteadyRate(
  ratePerSecond: number,
  count: number,
  start: (index: number) => Promise<void>,
): Promise<SteadyRun> {
  const began = performance.now();
  const inFlight: Promise<void>[] = [];
  let maxStartLagMs = 0;
  for (let index = 0; index < count; index += 1) {
    const due = began + (index * 1000) / ratePerSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    maxStartLagMs = Math.max(maxStartLagMs, performance.now() - due);
    inFlight.push(start(index));
  }
  await Promise.all(inFlight);
  return { maxStartLagMs: Number(maxStartLagMs.toFixed(1)) };
}

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function latencyFigures(values: number[]) {
  const round = (v: number) => Number(v.toFixed(1));
  return {
    samples: values.length,
    p50Ms: round(percentile(values, 50)),
    p99Ms: round(percentile(values, 99)),
    maxMs: round(values.length ? Math.max(...values) : 0),
  };
}

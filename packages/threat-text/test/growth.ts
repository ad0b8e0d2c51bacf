// Complexity class, not wall-clock time: how the time of `work` grows when its input doubles.
// Each size is timed as the fastest of several samples (noise on a shared machine only ever adds
// time); a sample repeats the call until it has run for a few milliseconds, so timer resolution
// and a single pause do not decide the answer.
// Linear work gives ratios near 2 per doubling, quadratic near 4.

export interface Growth {
  sizes: number[];
  /** Fastest sample's milliseconds per call, by size. */
  msPerCall: number[];
  /** msPerCall[i + 1] / msPerCall[i]: the growth of each doubling. */
  ratios: number[];
  /**
   * The median of `ratios`: one slow moment of a shared machine, a garbage-collector step, or the
   * smallest input still fitting a cache moves one ratio a lot and this not at all. Linear work
   * gives about 2, quadratic about 4 at every doubling.
   */
  perDoubling: number;
}

export interface GrowthOptions {
  /** Input sizes, each the double of the one before. */
  sizes: number[];
  samples?: number;
  minSampleMs?: number;
}

function sampleMs(work: () => unknown, minSampleMs: number): number {
  let calls = 0;
  const start = performance.now();
  let elapsed: number;
  do {
    work();
    calls += 1;
    elapsed = performance.now() - start;
  } while (elapsed < minSampleMs);
  return elapsed / calls;
}

export function measureGrowth(
  makeInput: (size: number) => string,
  work: (input: string) => unknown,
  { sizes, samples = 5, minSampleMs = 10 }: GrowthOptions,
): Growth {
  const inputs = sizes.map(makeInput);
  work(inputs[0]!); // warm-up: compile before timing
  const perSize: number[][] = sizes.map(() => []);
  // sizes interleaved, so a slow moment of a shared machine lands on all of them alike
  for (let s = 0; s < samples; s++) {
    inputs.forEach((input, i) => perSize[i]!.push(sampleMs(() => work(input), minSampleMs)));
  }
  const msPerCall = perSize.map((samplesMs) => Math.min(...samplesMs));
  const ratios = msPerCall.slice(1).map((ms, i) => ms / msPerCall[i]!);
  const perDoubling = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
  return { sizes, msPerCall, ratios, perDoubling };
}

/**
 * The growth, measured again (up to `attempts` times) while it looks worse than `maxRatio` per
 * doubling: noise on a busy machine can make one measurement look super-linear, a quadratic
 * algorithm looks so every time.
 */
export function settledGrowth(
  makeInput: (size: number) => string,
  work: (input: string) => unknown,
  options: GrowthOptions & { maxRatio: number; attempts?: number },
): Growth {
  let growth = measureGrowth(makeInput, work, options);
  for (let attempt = 1; attempt < (options.attempts ?? 5); attempt++) {
    if (growth.perDoubling < options.maxRatio) break;
    growth = measureGrowth(makeInput, work, options);
  }
  return growth;
}

/**
 * Text of about `size` characters made of whole `unit`s (and `tail` at the end): every size has the
 * same shape, so a cut unit never makes one size cheaper or dearer than the next.
 */
export function repeated(unit: string, tail = ''): (size: number) => string {
  return (size) => {
    const body = unit.repeat(Math.max(1, Math.floor((size - tail.length) / unit.length)));
    // a flat copy, as text parsed from a request is (a repeated string is a tree of halves)
    return Buffer.from(body + tail).toString();
  };
}

// Defanging hostile text: each shape of the outside review at 0.25, 0.5 and 1 MB, with
// the time per call and the ratio per doubling (about 2 when linear, 4 when quadratic), and the
// same-run baseline: benign prose of the same sizes. `hostileToProse` is how much slower than prose
// a shape is at 1 MB. Run by `npm run bench` (scripts/bench.ts); the last line is the JSON report.
// The work is synchronous: the progress lines while it runs come from bench-support's watchdog.
import { progress, runBenchmark } from '../../../scripts/bench-support';
import { defang, defangLinksIn } from '../src';
import { measureGrowth, type Growth } from '../test/growth';
import { BENIGN_PROSE, HOSTILE_SHAPES } from '../test/hostile-shapes';

const MB = 1 << 20;
const SIZES = [MB / 4, MB / 2, MB];
const SAMPLES = Number(process.env.BENCH_RUNS ?? 5);

function figures(growth: Growth) {
  return {
    msPerCall: Object.fromEntries(
      growth.sizes.map((size, i) => [`${size / MB}MB`, Number(growth.msPerCall[i]!.toFixed(2))]),
    ),
    ratioPerDoubling: growth.ratios.map((ratio) => Number(ratio.toFixed(2))),
  };
}

function line(growth: Growth): string {
  const times = growth.msPerCall.map((ms) => ms.toFixed(1).padStart(7)).join(' ');
  return `${times} ms  ratios ${growth.ratios.map((r) => r.toFixed(2)).join(' ')}`;
}

/** The growth of `fn` on the shape's inputs, the progress line naming what is measured. */
function growthOf(
  what: string,
  makeInput: (size: number) => string,
  fn: (input: string) => unknown,
): Growth {
  const restore = progress.doing(() => `measuring ${what}`);
  try {
    return measureGrowth(makeInput, fn, { sizes: SIZES, samples: SAMPLES });
  } finally {
    restore();
  }
}

runBenchmark({
  label: 'defang bench',
  scenario: { sizes: SIZES.map((size) => `${size / MB}MB`), samples: SAMPLES },
  main: async (run) => {
    const report: Record<string, unknown> = {};
    for (const [name, fn] of [
      ['defangLinksIn', defangLinksIn],
      ['defang', defang],
    ] as const) {
      run.stage(name);
      const baseline = growthOf(`${name} prose`, BENIGN_PROSE, fn);
      console.log(`${name} ${'prose'.padEnd(10)} ${line(baseline)}  (baseline)`);
      const shapes: Record<string, unknown> = {};
      run.measured(name, { baselineProse: figures(baseline), shapes });
      for (const [shape, makeInput] of Object.entries(HOSTILE_SHAPES)) {
        const growth = growthOf(`${name} ${shape}`, makeInput, fn);
        shapes[shape] = {
          ...figures(growth),
          hostileToProse: Number(
            (growth.msPerCall.at(-1)! / baseline.msPerCall.at(-1)!).toFixed(2),
          ),
        };
        console.log(`${name} ${shape.padEnd(10)} ${line(growth)}`);
      }
      report[name] = { baselineProse: figures(baseline), shapes };
    }
    return {
      verdict: 'measured',
      figures: { sizes: SIZES.map((size) => `${size / MB}MB`), samples: SAMPLES, ...report },
    };
  },
});

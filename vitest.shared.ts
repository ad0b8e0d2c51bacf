// What every test project's configuration shares.
export const sharedTestOptions = {
  // The files a worker runs share one module cache: each import is loaded once per worker instead
  // of once per file (40% of the unit run's CPU time went to that). It holds because every test
  // file closes in its afterAll what it opened, and leaves no module state for the next file.
  isolate: false,
  // Only a hang trips these: a test on a loaded machine is slower, not wrong. What a test waits
  // for fails first, once it stops making progress, naming what it waited for.
  testTimeout: 600_000,
  hookTimeout: 600_000,
  // expect.poll: minutes, not the default second
  expect: { poll: { timeout: 120_000 } },
} as const;

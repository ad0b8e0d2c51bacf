// What every test project's configuration shares.
export const sharedTestOptions = {
  // The files a worker runs share one module cache: each import is loaded once per worker instead
  // of once per file (40% of the unit run's CPU time went to that). It holds because every test
  // file closes in its afterAll what it opened, and leaves no module state for the next file.
  isolate: false,
} as const;

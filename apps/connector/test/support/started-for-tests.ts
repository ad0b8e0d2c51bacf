// The set-up most connector test files share: a harness (a database, sandboxes, a connector)
// started before the tests of the describe block it is called in and closed after them.
import { afterAll, beforeAll } from 'vitest';

/**
 * Starts the harness in a beforeAll of the enclosing describe block and closes it in its afterAll.
 * Returns a stand-in for the harness that the block's tests use as the harness itself: every
 * property read or written goes to the harness started (an error before it has started).
 */
export function startedForTests<THarness extends { close(): Promise<void> | void }>(
  start: () => Promise<THarness>,
  timeoutMs = 60_000,
): THarness {
  let started: THarness | undefined;
  beforeAll(async () => {
    started = await start();
  }, timeoutMs);
  afterAll(async () => {
    await started?.close();
  });
  const current = (): THarness => {
    if (!started)
      throw new Error('the harness has not started (its beforeAll failed or is to come)');
    return started;
  };
  return new Proxy({} as THarness, {
    get: (_target, property) => Reflect.get(current(), property),
    set: (_target, property, value) => Reflect.set(current(), property, value),
    has: (_target, property) => Reflect.has(current(), property),
  });
}

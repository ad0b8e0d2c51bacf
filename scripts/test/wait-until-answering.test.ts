// `npm start` waits for a service as long as it makes progress, however slow the machine, says what
// it waits for, and gives up only when the service exits or stalls. On an injected clock.
import { describe, expect, it } from 'vitest';
import { StartFailed, waitUntilAnswering, type WaitTarget } from '../start/wait-until-answering';

/** A service on a fake clock: `answersAt` ms after the start, working (its CPU time grows) until `stallsAt`. */
function service(options: { answersAt?: number; stallsAt?: number; exitsAt?: number }) {
  let clock = 0;
  const reported: string[] = [];
  const target: WaitTarget = {
    name: 'the connector',
    url: 'http://127.0.0.1:8787/readyz',
    answers: async () => options.answersAt !== undefined && clock >= options.answersAt,
    exited: () => (options.exitsAt !== undefined && clock >= options.exitsAt ? 'exit 1' : null),
    progress: () => Math.min(clock, options.stallsAt ?? Infinity),
  };
  const wait = () =>
    waitUntilAnswering(target, {
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
      report: (line) => reported.push(line),
    });
  return { wait, reported, elapsed: () => clock };
}

describe('waiting for a service to answer', () => {
  it('waits as long as the service works, twenty minutes included, saying what it waits for', async () => {
    const slow = service({ answersAt: 20 * 60_000 });
    await expect(slow.wait()).resolves.toBeUndefined();
    expect(slow.elapsed()).toBe(20 * 60_000);
    expect(slow.reported[0]).toBe(
      'Waiting for the connector to answer http://127.0.0.1:8787/readyz (5 s, working)…',
    );
    expect(slow.reported).toHaveLength(239); // every 5 s until it answered
  });

  it('answers at once without a word when the service is ready', async () => {
    const ready = service({ answersAt: 0 });
    await ready.wait();
    expect(ready.reported).toEqual([]);
  });

  it('gives up when the service exits, naming how', async () => {
    const dead = service({ exitsAt: 7_000 });
    await expect(dead.wait()).rejects.toThrow(
      new StartFailed('the connector stopped while starting (exit 1); its output is above.'),
    );
  });

  it('says when the service stops making progress, and gives up only after three minutes of it', async () => {
    const stuck = service({ stallsAt: 60_000 });
    const failure = await stuck.wait().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StartFailed);
    expect((failure as Error).message).toBe(
      'the connector made no progress for 180 s (no CPU time, no output) and never answered http://127.0.0.1:8787/readyz: stopped. Its output is above.',
    );
    expect(stuck.elapsed()).toBe(240_000);
    expect(stuck.reported).toContain(
      'Waiting for the connector to answer http://127.0.0.1:8787/readyz (65 s; no progress for 5 s)…',
    );
  });
});

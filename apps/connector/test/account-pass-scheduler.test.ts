// The account writers' scheduler on its own (no database): at most `concurrency` passes at once,
// accounts taking turns one pass each, an account's passes spaced so what became ready meanwhile
// goes in one request, and an account whose lease is elsewhere left alone until it runs out.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  startAccountPassScheduler,
  type AccountPassScheduler,
  type PassOutcome,
} from '../src/sync/ticket-writes/account-pass-scheduler';

/** Passes that run until the test ends them, recorded in the order they started. */
function controlledPasses() {
  const started: string[] = [];
  const open = new Map<string, (outcome: PassOutcome) => void>();
  let running = 0;
  let mostAtOnce = 0;
  return {
    started,
    mostAtOnce: () => mostAtOnce,
    running: () => [...open.keys()],
    runPass: (accountId: string) =>
      new Promise<PassOutcome>((resolve) => {
        started.push(accountId);
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        open.set(accountId, (outcome) => {
          running -= 1;
          open.delete(accountId);
          resolve(outcome);
        });
      }),
    /** Ends the account's running pass with `nextAt` (null: nothing waits), then lets the scheduler react. */
    async end(accountId: string, nextAt: Date | null = null) {
      const finish = open.get(accountId);
      if (!finish) throw new Error(`no pass of ${accountId} is running`);
      finish({ nextAt });
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

describe('account pass scheduler', () => {
  let scheduler: AccountPassScheduler | undefined;
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
  });
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = undefined;
    vi.useRealTimers();
  });

  it('runs at most `concurrency` passes at once; the others wait for a free slot', async () => {
    const passes = controlledPasses();
    scheduler = startAccountPassScheduler({
      concurrency: 2,
      runPass: passes.runPass,
      minPassIntervalMs: 0,
    });
    for (const account of ['a', 'b', 'c', 'd', 'e']) scheduler.want(account);
    await vi.advanceTimersByTimeAsync(0);
    expect(passes.running()).toEqual(['a', 'b']);
    await passes.end('a');
    expect(passes.running()).toEqual(['b', 'c']);
    await passes.end('b');
    await passes.end('c');
    await passes.end('d');
    await passes.end('e');
    expect(passes.started).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(passes.mostAtOnce()).toBe(2);
    expect(scheduler.scheduled()).toBe(0);
  });

  it('an account with a long backlog gets one pass per turn: the accounts waiting meanwhile go first', async () => {
    const passes = controlledPasses();
    scheduler = startAccountPassScheduler({
      concurrency: 1,
      runPass: passes.runPass,
      minPassIntervalMs: 0,
    });
    scheduler.want('busy');
    await vi.advanceTimersByTimeAsync(0);
    scheduler.want('b');
    scheduler.want('c');
    // the busy account has more at once, every time
    await passes.end('busy', new Date());
    expect(passes.running()).toEqual(['b']);
    await passes.end('b');
    expect(passes.running()).toEqual(['c']);
    scheduler.want('d'); // arrives while c runs: behind the busy account, which waited longer
    await passes.end('c');
    await passes.end('busy', new Date());
    await passes.end('d');
    await passes.end('busy', null);
    expect(passes.started).toEqual(['busy', 'b', 'c', 'busy', 'd', 'busy']);
  });

  it('spaces one account’s passes, so what becomes ready meanwhile is written together; a pass runs when its account is due', async () => {
    const passes = controlledPasses();
    scheduler = startAccountPassScheduler({
      concurrency: 4,
      runPass: passes.runPass,
      minPassIntervalMs: 1_000,
    });
    scheduler.want('a');
    await vi.advanceTimersByTimeAsync(0);
    await passes.end('a', new Date()); // wrote something; more may be ready at once
    scheduler.want('a'); // a signal: still not before the spacing
    await vi.advanceTimersByTimeAsync(999);
    expect(passes.started).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(1);
    expect(passes.started).toEqual(['a', 'a']);
    // next change ready in 3 s: no pass before then, however often the account is signalled
    await passes.end('a', new Date(Date.now() + 3_000));
    await vi.advanceTimersByTimeAsync(2_000);
    scheduler.want('a', new Date(Date.now() + 5_000)); // later than already due: changes nothing
    await vi.advanceTimersByTimeAsync(999);
    expect(passes.started).toEqual(['a', 'a']);
    await vi.advanceTimersByTimeAsync(1);
    expect(passes.started).toEqual(['a', 'a', 'a']);
    await passes.end('a', null);
    // idle: the next signal runs a pass at once
    await vi.advanceTimersByTimeAsync(5_000);
    scheduler.want('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(passes.started).toHaveLength(4);
    await passes.end('a', null);
  });

  it('a signal during a pass brings one more pass; an account held elsewhere is left alone until its lease ends', async () => {
    const passes = controlledPasses();
    scheduler = startAccountPassScheduler({
      concurrency: 4,
      runPass: passes.runPass,
      minPassIntervalMs: 0,
    });
    scheduler.want('a');
    await vi.advanceTimersByTimeAsync(0);
    scheduler.want('a');
    scheduler.want('a');
    await passes.end('a', null);
    expect(passes.started).toEqual(['a', 'a']);

    scheduler.ignoreUntil('a', new Date(Date.now() + 10_000)); // the pass found the lease elsewhere
    await passes.end('a', null);
    scheduler.want('a');
    await vi.advanceTimersByTimeAsync(9_000);
    scheduler.want('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(passes.started).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_000);
    scheduler.want('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(passes.started).toHaveLength(3);
    await passes.end('a', null);
  });

  it('a pass that throws is reported, and its account waits out the back-off even when signalled', async () => {
    const errors: string[] = [];
    const started: number[] = [];
    scheduler = startAccountPassScheduler({
      concurrency: 1,
      runPass: async () => {
        started.push(Date.now());
        throw new Error('needs re-authorisation');
      },
      errorBackoffMs: 5_000,
      onError: (accountId, error) => errors.push(`${accountId}: ${(error as Error).message}`),
    });
    const first = Date.now();
    scheduler.want('a');
    await vi.advanceTimersByTimeAsync(0);
    scheduler.want('a');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(started).toEqual([first]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([first, first + 5_000]);
    expect(errors).toEqual(['a: needs re-authorisation', 'a: needs re-authorisation']);
  });
});

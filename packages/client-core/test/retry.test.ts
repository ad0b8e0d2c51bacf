import { describe, expect, it } from 'vitest';
import { backoffDelayMs, parseRetryAfterMs, retryDelayMs, sleep } from '../src/retry';

const now = Date.parse('2026-11-21T10:00:00Z');

describe('parseRetryAfterMs', () => {
  it('reads delta-seconds and HTTP dates; a date in the past is 0', () => {
    expect(parseRetryAfterMs('7', now)).toBe(7_000);
    expect(parseRetryAfterMs(' 1.5 ', now)).toBe(1_500);
    expect(parseRetryAfterMs('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterMs('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });

  it('ignores what is absent, negative or garbage, so the backoff applies', () => {
    for (const value of [null, undefined, '', '  ', '-3', '-0.5', 'soon', '1e3', '12 s'])
      expect(parseRetryAfterMs(value, now)).toBeUndefined();
  });
});

describe('backoffDelayMs', () => {
  it('doubles from the first delay up to the ceiling, with up to 25 % jitter below', () => {
    const backoff = { initialMs: 100, maxMs: 500 };
    expect([0, 1, 2, 3, 4].map((n) => backoffDelayMs(n, backoff, () => 0))).toEqual([
      100, 200, 400, 500, 500,
    ]);
    expect(backoffDelayMs(1, backoff, () => 0.999)).toBe(150);
  });
});

describe('retryDelayMs', () => {
  const policy = { initialMs: 100, maxMs: 500, maxRetryAfterMs: 60_000 };
  it("waits the server's Retry-After up to the maximum, and not at all beyond it", () => {
    expect(retryDelayMs(0, '2', policy)).toBe(2_000);
    expect(retryDelayMs(0, '60', policy)).toBe(60_000);
    expect(retryDelayMs(0, '61', policy)).toBeUndefined();
    expect(retryDelayMs(2, '-3', policy, () => 0)).toBe(400);
    expect(retryDelayMs(1, null, policy, () => 0)).toBe(200);
  });
});

describe('sleep', () => {
  it('resolves after the delay', async () => {
    const started = Date.now();
    await sleep(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('stops at once when the signal aborts, before or during the wait', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    setTimeout(() => controller.abort(new Error('stopping')), 10);
    // rejected by the signal: the wait itself would have resolved
    await expect(waiting).rejects.toThrow('stopping');
    await expect(sleep(60_000, controller.signal)).rejects.toThrow('stopping');
  });
});

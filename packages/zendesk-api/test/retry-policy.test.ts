import { describe, expect, it } from 'vitest';
import { decideRetry, parseRetryAfterSeconds, type RetryPolicy } from '../src/core/retry-policy';

const policy: RetryPolicy = { maxRetries: 2, maxRetryAfterSeconds: 60, initialRetryDelayMs: 100, maxRetryDelayMs: 1000 };
const status = (code: number, headers: Record<string, string> = {}) => ({
  kind: 'status' as const,
  status: code,
  headers: new Headers(headers),
});

describe('parseRetryAfterSeconds', () => {
  it('reads seconds and HTTP dates, ignoring junk', () => {
    expect(parseRetryAfterSeconds('7')).toBe(7);
    expect(parseRetryAfterSeconds('1.5')).toBe(1.5);
    expect(parseRetryAfterSeconds(null)).toBeUndefined();
    expect(parseRetryAfterSeconds('-3')).toBeUndefined();
    expect(parseRetryAfterSeconds('soon')).toBeUndefined();
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(parseRetryAfterSeconds('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfterSeconds('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });
});

describe('decideRetry', () => {
  it('retries 429 for any method and honours Retry-After', () => {
    expect(decideRetry({ retriesDone: 0, idempotent: false, outcome: status(429, { 'retry-after': '5' }) }, policy)).toEqual({
      retry: true,
      delayMs: 5000,
    });
  });

  it('stops at maxRetries', () => {
    expect(decideRetry({ retriesDone: 2, idempotent: true, outcome: status(503) }, policy)).toEqual({ retry: false });
  });

  it('retries 5xx and connection errors only when idempotent', () => {
    expect(decideRetry({ retriesDone: 0, idempotent: false, outcome: status(500) }, policy).retry).toBe(false);
    expect(decideRetry({ retriesDone: 0, idempotent: false, outcome: { kind: 'connection' } }, policy).retry).toBe(false);
    expect(decideRetry({ retriesDone: 0, idempotent: true, outcome: status(500) }, policy).retry).toBe(true);
    expect(decideRetry({ retriesDone: 0, idempotent: true, outcome: { kind: 'connection' } }, policy).retry).toBe(true);
  });

  it('never retries other 4xx', () => {
    for (const code of [400, 401, 403, 404, 409, 422]) {
      expect(decideRetry({ retriesDone: 0, idempotent: true, outcome: status(code) }, policy).retry).toBe(false);
    }
  });

  it('caps the exponential backoff', () => {
    const decision = decideRetry({ retriesDone: 1, idempotent: true, outcome: status(502) }, { ...policy, maxRetries: 10, maxRetryDelayMs: 150 });
    expect(decision).toMatchObject({ retry: true });
    expect((decision as { delayMs: number }).delayMs).toBeLessThanOrEqual(150);
  });
});

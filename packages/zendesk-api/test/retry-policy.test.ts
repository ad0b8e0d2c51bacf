import { describe, expect, it } from 'vitest';
import { decideRetry, type ZendeskRetryPolicy } from '../src/core/retry-policy';

const policy: ZendeskRetryPolicy = {
  maxRetries: 2,
  initialDelayMs: 100,
  maxDelayMs: 1000,
  maxRetryAfterMs: 60_000,
  retryRateLimited: true,
  retryNonIdempotent: false,
};
const status = (code: number, headers: Record<string, string> = {}) => ({
  kind: 'status' as const,
  status: code,
  headers: new Headers(headers),
});

describe('decideRetry', () => {
  it('retries 429 for any method and honours Retry-After', () => {
    expect(
      decideRetry(
        { retriesDone: 0, idempotent: false, outcome: status(429, { 'retry-after': '5' }) },
        policy,
      ),
    ).toEqual({
      retry: true,
      delayMs: 5000,
    });
  });

  it('does not wait for a Retry-After above the maximum, and backs off for a negative one', () => {
    expect(
      decideRetry(
        { retriesDone: 0, idempotent: true, outcome: status(429, { 'retry-after': '61' }) },
        policy,
      ),
    ).toEqual({
      retry: false,
    });
    const negative = decideRetry(
      { retriesDone: 0, idempotent: true, outcome: status(429, { 'retry-after': '-3' }) },
      policy,
    );
    expect(negative.retry && negative.delayMs).toBeGreaterThanOrEqual(75);
  });

  it('stops at maxRetries', () => {
    expect(decideRetry({ retriesDone: 2, idempotent: true, outcome: status(503) }, policy)).toEqual(
      { retry: false },
    );
  });

  it('retries 5xx and connection errors only when idempotent', () => {
    expect(
      decideRetry({ retriesDone: 0, idempotent: false, outcome: status(500) }, policy).retry,
    ).toBe(false);
    expect(
      decideRetry({ retriesDone: 0, idempotent: false, outcome: { kind: 'connection' } }, policy)
        .retry,
    ).toBe(false);
    expect(
      decideRetry({ retriesDone: 0, idempotent: true, outcome: status(500) }, policy).retry,
    ).toBe(true);
    expect(
      decideRetry({ retriesDone: 0, idempotent: true, outcome: { kind: 'connection' } }, policy)
        .retry,
    ).toBe(true);
  });

  it('never retries other 4xx', () => {
    for (const code of [400, 401, 403, 404, 409, 422]) {
      expect(
        decideRetry({ retriesDone: 0, idempotent: true, outcome: status(code) }, policy).retry,
      ).toBe(false);
    }
  });

  it('caps the exponential backoff', () => {
    const decision = decideRetry(
      { retriesDone: 1, idempotent: true, outcome: status(502) },
      { ...policy, maxRetries: 10, maxDelayMs: 150 },
    );
    expect(decision).toMatchObject({ retry: true });
    expect((decision as { delayMs: number }).delayMs).toBeLessThanOrEqual(150);
  });
});

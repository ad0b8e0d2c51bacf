import type { Operation, RetryClass } from './operations';
import { OPERATIONS } from './operations';

export interface RetryPolicy {
  /** retries after the first attempt; default 2 */
  maxRetries: number;
  /** first backoff delay; default 500 ms, doubled per retry, with up to 25 % jitter below */
  initialDelayMs: number;
  /** backoff ceiling; default 8 000 ms */
  maxDelayMs: number;
  /** Retry-After above this is capped to it; default 60 000 ms */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

const READ_RETRY_STATUSES = new Set([429, 502, 503]);
const WRITE_RETRY_STATUSES = new Set([429, 503]);

export type AttemptOutcome =
  | { kind: 'status'; status: number }
  | { kind: 'connection' }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

/** Whether an attempt that ended this way may be repeated for this operation. */
export function isRetryable(operation: Operation, outcome: AttemptOutcome): boolean {
  const retryClass: RetryClass = OPERATIONS[operation];
  if (retryClass === 'never' || outcome.kind === 'aborted') return false;
  if (outcome.kind !== 'status') return retryClass === 'read';
  if (retryClass === 'write') return WRITE_RETRY_STATUSES.has(outcome.status);
  // "on resolutions, an incident on the page was not found (retry)"
  if (operation === 'resolutions.list' && outcome.status === 404) return true;
  return READ_RETRY_STATUSES.has(outcome.status);
}

/** Retry-After in ms (delta-seconds or HTTP date), or undefined when absent or unusable. */
export function parseRetryAfter(
  headers: Headers | undefined,
  now = Date.now(),
): number | undefined {
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Delay before retry number `retry` (0-based): Retry-After when given (capped), else backoff. */
export function retryDelayMs(
  policy: RetryPolicy,
  retry: number,
  headers?: Headers,
  random: () => number = Math.random,
): number {
  const retryAfter = parseRetryAfter(headers);
  if (retryAfter !== undefined) return Math.min(retryAfter, policy.maxRetryAfterMs);
  const backoff = Math.min(policy.initialDelayMs * 2 ** retry, policy.maxDelayMs);
  return Math.round(backoff * (1 - random() * 0.25));
}

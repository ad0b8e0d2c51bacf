import type { RetryPolicy } from '@incident-desk/client-core';
import type { Operation, RetryClass } from './operations';
import { OPERATIONS } from './operations';

export type { RetryPolicy };

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

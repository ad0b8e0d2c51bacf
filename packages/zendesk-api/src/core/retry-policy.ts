import { backoffDelayMs, retryDelayMs } from '@incident-desk/client-core';

export interface RetryPolicy {
  /** Retries after the first attempt (401 refresh is separate and never counted here). */
  maxRetries: number;
  /** A Retry-After longer than this is not waited for: the call fails with ZendeskRateLimitedError. */
  maxRetryAfterSeconds: number;
  initialRetryDelayMs: number;
  maxRetryDelayMs: number;
  /** Whether a 429 is retried at all (after its Retry-After). Default true. */
  retryRateLimited?: boolean;
}

export type RetryOutcome =
  { kind: 'status'; status: number; headers: Headers } | { kind: 'connection' };

export interface RetryQuestion {
  /** Retries already made for this call. */
  retriesDone: number;
  /** Whether repeating the request cannot duplicate its effect. */
  idempotent: boolean;
  outcome: RetryOutcome;
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false };

const NO = { retry: false } as const;

/**
 * The one retry policy of the client.
 * - 429: retryable (Zendesk rejected it before doing anything), honouring Retry-After, unless
 *   the call asks for it at once (`retryRateLimited: false`: its caller reschedules).
 * - 5xx and connection failures: only when the request is idempotent, since a create that
 *   reached Zendesk before the failure would otherwise happen twice.
 */
export function decideRetry(question: RetryQuestion, policy: RetryPolicy): RetryDecision {
  if (question.retriesDone >= policy.maxRetries) return NO;
  const { outcome } = question;
  if (outcome.kind === 'connection') {
    return question.idempotent
      ? { retry: true, delayMs: backoff(question.retriesDone, policy) }
      : NO;
  }
  if (outcome.status === 429) {
    if (policy.retryRateLimited === false) return NO;
    return retryHonouringHeader(outcome.headers, question.retriesDone, policy);
  }
  if (outcome.status >= 500 && question.idempotent) {
    return retryHonouringHeader(outcome.headers, question.retriesDone, policy);
  }
  return NO;
}

function retryHonouringHeader(
  headers: Headers,
  retriesDone: number,
  policy: RetryPolicy,
): RetryDecision {
  const delayMs = retryDelayMs(retriesDone, headers.get('retry-after'), {
    initialMs: policy.initialRetryDelayMs,
    maxMs: policy.maxRetryDelayMs,
    maxRetryAfterMs: policy.maxRetryAfterSeconds * 1000,
  });
  return delayMs === undefined ? NO : { retry: true, delayMs };
}

function backoff(retriesDone: number, policy: RetryPolicy): number {
  return backoffDelayMs(retriesDone, {
    initialMs: policy.initialRetryDelayMs,
    maxMs: policy.maxRetryDelayMs,
  });
}

import { backoffDelayMs, retryDelayMs, type RetryPolicy } from '@incident-desk/client-core';

/**
 * The client's `retry` option: the policy both clients share (`maxRetries` counts retries after
 * the first attempt; a 401's one token refresh is separate and never counted), and Zendesk's own.
 */
export interface ZendeskRetryPolicy extends RetryPolicy {
  /** Whether a 429 is retried at all (after its Retry-After); a call may say otherwise. */
  retryRateLimited: boolean;
  /** Also retry POSTs (creates, uploads) on 5xx and connection errors. */
  retryNonIdempotent: boolean;
}

export const DEFAULT_RETRY_POLICY: ZendeskRetryPolicy = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  retryRateLimited: true,
  retryNonIdempotent: false,
};

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
export function decideRetry(question: RetryQuestion, policy: ZendeskRetryPolicy): RetryDecision {
  if (question.retriesDone >= policy.maxRetries) return NO;
  const { outcome } = question;
  if (outcome.kind === 'connection') {
    return question.idempotent
      ? { retry: true, delayMs: backoff(question.retriesDone, policy) }
      : NO;
  }
  if (outcome.status === 429) {
    if (!policy.retryRateLimited) return NO;
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
    initialMs: policy.initialDelayMs,
    maxMs: policy.maxDelayMs,
    maxRetryAfterMs: policy.maxRetryAfterMs,
  });
  return delayMs === undefined ? NO : { retry: true, delayMs };
}

function backoff(retriesDone: number, policy: RetryPolicy): number {
  return backoffDelayMs(retriesDone, {
    initialMs: policy.initialDelayMs,
    maxMs: policy.maxDelayMs,
  });
}

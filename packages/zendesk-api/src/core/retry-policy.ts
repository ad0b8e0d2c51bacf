export interface RetryPolicy {
  /** Retries after the first attempt (401 refresh is separate and never counted here). */
  maxRetries: number;
  /** A Retry-After longer than this is not waited for: the call fails with ZendeskRateLimitedError. */
  maxRetryAfterSeconds: number;
  initialRetryDelayMs: number;
  maxRetryDelayMs: number;
}

export type RetryOutcome =
  | { kind: 'status'; status: number; headers: Headers }
  | { kind: 'connection' };

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
 * - 429: always retryable (Zendesk rejected it before doing anything), honouring Retry-After.
 * - 5xx and connection failures: only when the request is idempotent, since a create that
 *   reached Zendesk before the failure would otherwise happen twice.
 */
export function decideRetry(question: RetryQuestion, policy: RetryPolicy): RetryDecision {
  if (question.retriesDone >= policy.maxRetries) return NO;
  const { outcome } = question;
  if (outcome.kind === 'connection') {
    return question.idempotent ? { retry: true, delayMs: backoffDelayMs(question.retriesDone, policy) } : NO;
  }
  if (outcome.status === 429) return retryHonouringHeader(outcome.headers, question.retriesDone, policy);
  if (outcome.status >= 500 && question.idempotent) {
    return retryHonouringHeader(outcome.headers, question.retriesDone, policy);
  }
  return NO;
}

function retryHonouringHeader(headers: Headers, retriesDone: number, policy: RetryPolicy): RetryDecision {
  const retryAfter = parseRetryAfterSeconds(headers.get('retry-after'));
  if (retryAfter === undefined) return { retry: true, delayMs: backoffDelayMs(retriesDone, policy) };
  if (retryAfter > policy.maxRetryAfterSeconds) return NO;
  return { retry: true, delayMs: Math.ceil(retryAfter * 1000) };
}

export function backoffDelayMs(retriesDone: number, policy: RetryPolicy): number {
  const exponential = Math.min(policy.initialRetryDelayMs * 2 ** retriesDone, policy.maxRetryDelayMs);
  // Up to 25% jitter downwards so many workers hitting the same outage spread out.
  return Math.round(exponential * (1 - Math.random() * 0.25));
}

/** Retry-After as delta seconds or an HTTP date; negative or unparseable values are ignored. */
export function parseRetryAfterSeconds(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  // Only an HTTP date (it names a weekday or month); Date.parse would read "-3" as a year.
  if (!/[a-z]{3}/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}

// How both API clients wait before a retry: the server's Retry-After when it gives a usable one,
// exponential backoff with jitter otherwise, and a sleep that a stopping worker can cut short.

/**
 * The retry options both API clients take under `retry`, every duration in milliseconds. Each
 * client sets its own defaults and may add options of its own to the same object.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The first backoff delay when no Retry-After applies; doubled per retry, jitter below. */
  initialDelayMs: number;
  /** The backoff ceiling. */
  maxDelayMs: number;
  /** A Retry-After above this is not waited for: the call fails at once. */
  maxRetryAfterMs: number;
}

export interface Backoff {
  /** The first retry's delay; doubled per retry. */
  initialMs: number;
  /** The ceiling of the doubling. */
  maxMs: number;
}

/**
 * Retry-After in milliseconds: delta-seconds or an HTTP date (one in the past is 0). Absent,
 * negative or unparseable values are undefined, so the caller falls back to its backoff.
 */
export function parseRetryAfterMs(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  // Only an HTTP date names a weekday or a month; Date.parse would read "-3" as a year.
  if (!/[a-z]{3}/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The delay before retry number `retry` (0-based), with up to 25 % jitter downwards. */
export function backoffDelayMs(
  retry: number,
  backoff: Backoff,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(backoff.initialMs * 2 ** retry, backoff.maxMs);
  return Math.round(exponential * (1 - random() * 0.25));
}

/**
 * What to do about a refusal that may be retried: wait the server's Retry-After, or the backoff
 * when it gives none. A Retry-After above `maxRetryAfterMs` is not waited for (`undefined`): the
 * call fails at once and its caller, a job queue, reschedules it rather than holding a worker.
 */
export function retryDelayMs(
  retry: number,
  retryAfter: string | null | undefined,
  policy: Backoff & { maxRetryAfterMs: number },
  random: () => number = Math.random,
): number | undefined {
  const asked = parseRetryAfterMs(retryAfter);
  if (asked === undefined) return backoffDelayMs(retry, policy, random);
  return asked > policy.maxRetryAfterMs ? undefined : asked;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

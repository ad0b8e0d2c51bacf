import { sleep, type RetryPolicy } from '@incident-desk/client-core';
import type { AttachmentSourceOptions } from './attachment-sources';
import { ZendeskError } from './errors';
import { DEFAULT_RETRY_POLICY, type ZendeskRetryPolicy } from './retry-policy';

/**
 * Supplies OAuth access tokens. The accounts layer implements it with proactive refresh and a
 * per-account lock; the client only asks for a token and, after an unexpected 401, for exactly
 * one replacement of the token Zendesk rejected.
 */
export interface ZendeskTokenProvider {
  getAccessToken(): Promise<string>;
  refreshAfterUnauthorized(rejected: string): Promise<string>;
}

/** Zendesk requires these on every API call made by a marketplace app's backend. */
export interface ZendeskMarketplaceIdentity {
  name: string;
  organizationId: string | number;
  appId: string | number;
}

export interface ZendeskClientOptions {
  /** `https://{subdomain}.zendesk.com`, or any URL (e.g. the sandbox); used as given, a path prefix is kept. */
  baseUrl: string;
  tokenProvider: ZendeskTokenProvider;
  /** Sends X-Zendesk-Marketplace-Name / -Organization-Id / -App-Id on every request. Default: not sent. */
  marketplace?: ZendeskMarketplaceIdentity | undefined;
  /** Extra headers on every request (e.g. the sandbox's account header). Default: none. */
  headers?: Record<string, string> | undefined;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch | undefined;
  /** Per attempt, including reading the body. Default: 30 000 ms. */
  timeoutMs?: number | undefined;
  /** Default: `incident-desk-zendesk-api/0.1.0`. */
  userAgent?: string | undefined;
  /**
   * Merged over DEFAULT_RETRY_POLICY: 2 retries, backoff from 500 ms to 8 000 ms, 429s retried, a
   * Retry-After above 60 000 ms not waited for (ZendeskRateLimitedError at once, so a job queue can
   * reschedule), POSTs not retried on 5xx / connection errors. `false` disables retries.
   */
  retry?: Partial<ZendeskRetryPolicy> | false | undefined;
  /** How retries wait; injectable so tests can observe delays without sleeping. Default: setTimeout. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** Ends every call of this client once it fires, like a per-call `signal`. Default: none. */
  signal?: AbortSignal | undefined;
  /** Where attachment content may be downloaded from besides baseUrl's origin. Default: Zendesk's hosts. */
  attachmentSources?: AttachmentSourceOptions | undefined;
  /** Told about every attempt (metrics); must not throw. Default: none. */
  observer?: ZendeskCallObserver | undefined;
}

/** One attempt of a call, as an observer sees it: never a URL's ids, query, body or token. */
export interface ZendeskCallObservation {
  method: string;
  /** The path with its ids replaced by `{id}` (`/api/v2/tickets/{id}.json`); `external` for another origin. */
  endpoint: string;
  /** The response's status, or `connection` / `timeout` when none came. */
  status: number | 'connection' | 'timeout';
  /** Whether the client tries again after this attempt (a 429, a 5xx, a refreshed token). */
  retry: boolean;
  durationMs: number;
}

export type ZendeskCallObserver = (call: ZendeskCallObservation) => void;

/** Per-call options accepted by every resource method as the last argument. */
export interface ZendeskRequestOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  headers?: Record<string, string> | undefined;
  maxRetries?: number | undefined;
  /**
   * Whether a 429 is waited out and retried for this call. Default true. False: it fails at once
   * with ZendeskRateLimitedError, for a caller that schedules the retry itself (5xx retries stay).
   */
  retryRateLimited?: boolean | undefined;
  /** Overrides whether 5xx / connection errors may be retried for this call. */
  idempotent?: boolean | undefined;
}

export interface ResolvedClientOptions {
  baseUrl: string;
  tokenProvider: ZendeskTokenProvider;
  fetch: typeof fetch;
  timeoutMs: number;
  retryPolicy: ZendeskRetryPolicy;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Headers sent with every request before per-call headers and Authorization. */
  defaultHeaders: Record<string, string>;
  signal: AbortSignal | undefined;
  observer: ZendeskCallObserver | undefined;
}

export const DEFAULT_USER_AGENT = 'incident-desk-zendesk-api/0.1.0';

export function resolveClientOptions(options: ZendeskClientOptions): ResolvedClientOptions {
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch (cause) {
    throw new ZendeskError(`baseUrl is not a valid URL: ${JSON.stringify(options.baseUrl)}`, {
      cause,
    });
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') {
    throw new ZendeskError(`baseUrl must use http or https: ${options.baseUrl}`);
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    tokenProvider: options.tokenProvider,
    fetch: fetchImpl,
    timeoutMs: nonNegative('timeoutMs', options.timeoutMs, 30_000),
    retryPolicy: resolveRetryPolicy(options.retry),
    sleep: options.sleep ?? sleep,
    signal: options.signal,
    observer: options.observer,
    defaultHeaders: {
      accept: 'application/json',
      'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
      ...marketplaceHeaders(options.marketplace),
      ...options.headers,
    },
  };
}

function resolveRetryPolicy(
  retry: Partial<ZendeskRetryPolicy> | false | undefined,
): ZendeskRetryPolicy {
  if (retry === false) return { ...DEFAULT_RETRY_POLICY, maxRetries: 0 };
  const given: Partial<ZendeskRetryPolicy> = retry ?? {};
  const number = (name: keyof RetryPolicy) =>
    nonNegative(`retry.${name}`, given[name], DEFAULT_RETRY_POLICY[name]);
  return {
    maxRetries: number('maxRetries'),
    initialDelayMs: number('initialDelayMs'),
    maxDelayMs: number('maxDelayMs'),
    maxRetryAfterMs: number('maxRetryAfterMs'),
    retryRateLimited: given.retryRateLimited ?? DEFAULT_RETRY_POLICY.retryRateLimited,
    retryNonIdempotent: given.retryNonIdempotent ?? DEFAULT_RETRY_POLICY.retryNonIdempotent,
  };
}

function marketplaceHeaders(
  identity: ZendeskMarketplaceIdentity | undefined,
): Record<string, string> {
  if (!identity) return {};
  return {
    'X-Zendesk-Marketplace-Name': identity.name,
    'X-Zendesk-Marketplace-Organization-Id': String(identity.organizationId),
    'X-Zendesk-Marketplace-App-Id': String(identity.appId),
  };
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0)
    throw new ZendeskError(`${name} must be a non-negative number`);
  return value;
}

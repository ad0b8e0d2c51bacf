import { retryDelayMs, sleep } from '@incident-desk/client-core';
import type { z } from 'zod';
import { REQUEST_ID_HEADERS } from '../assumptions';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  IncidentApiError,
  RedirectRefusedError,
  ResponseValidationError,
} from '../errors';
import { errorFromResponse } from './error-mapping';
import type { Operation } from './operations';
import {
  DEFAULT_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  type FetchLike,
  type IncidentCallObservation,
  type IncidentClientOptions,
  type RequestOptions,
} from './options';
import { DEFAULT_RETRY_POLICY, isRetryable, type AttemptOutcome, type RetryPolicy } from './retry';

export type QueryValue = string | number | boolean | undefined | null;

export type RequestBody =
  | { kind: 'json'; value: unknown }
  /** already encoded (multipart), so a retry could resend the same bytes */
  | { kind: 'bytes'; value: Uint8Array; contentType: string };

export interface RequestSpec<T> {
  operation: Operation;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue>;
  body?: RequestBody;
  /** tolerant reader schema of the 2xx body */
  schema: z.ZodType<T>;
  options?: RequestOptions;
}

export interface RawResult<T> {
  data: T;
  status: number;
  headers: Headers;
  requestId: string | undefined;
}

const isRedirect = (status: number) => status >= 300 && status < 400;

function requestIdOf(headers: Headers): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name);
    if (value) return value;
  }
  return undefined;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** HTTP with auth, timeout, the retry policy, error mapping and response parsing. */
export class Transport {
  private readonly baseURL: string;
  private readonly fetch: FetchLike;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly sleep: NonNullable<IncidentClientOptions['sleep']>;

  constructor(private readonly options: IncidentClientOptions) {
    if (!options.baseURL) throw new IncidentApiError('baseURL is required');
    if (!options.apiKey) throw new IncidentApiError('apiKey is required');
    this.baseURL = options.baseURL.replace(/\/+$/, '');
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.retry =
      options.retry === false
        ? { ...DEFAULT_RETRY_POLICY, maxRetries: 0 }
        : { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.sleep = options.sleep ?? sleep;
  }

  get defaultClientId(): string | undefined {
    return this.options.clientId;
  }

  url(path: string, query?: Record<string, QueryValue>): string {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) search.append(key, String(value));
    }
    const qs = search.toString();
    return `${this.baseURL}${path}${qs ? `?${qs}` : ''}`;
  }

  /** The call's own signal and the client's, whichever fires first. */
  private abortSignal(spec: RequestSpec<unknown>): AbortSignal | undefined {
    const own = spec.options?.signal;
    const client = this.options.signal;
    return own && client ? AbortSignal.any([own, client]) : (own ?? client);
  }

  async request<T>(spec: RequestSpec<T>): Promise<RawResult<T>> {
    const maxRetries = spec.options?.maxRetries ?? this.retry.maxRetries;
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      const outcome = await this.attempt(spec);
      if (outcome.kind === 'response') {
        this.observe(spec, started, outcome.status, false);
        return this.parse(spec, outcome);
      }
      const delay =
        attempt < maxRetries && isRetryable(spec.operation, outcome.attempt)
          ? retryDelayMs(attempt, outcome.headers?.get('retry-after'), {
              initialMs: this.retry.initialDelayMs,
              maxMs: this.retry.maxDelayMs,
              maxRetryAfterMs: this.retry.maxRetryAfterMs,
            })
          : undefined;
      const canRetry = delay !== undefined;
      const attempted = outcome.attempt;
      this.observe(
        spec,
        started,
        attempted.kind === 'status' ? attempted.status : attempted.kind,
        canRetry,
      );
      if (!canRetry) throw outcome.error;
      try {
        await this.sleep(delay, this.abortSignal(spec));
      } catch {
        throw new APIUserAbortError(spec.operation);
      }
    }
  }

  private observe(
    spec: RequestSpec<unknown>,
    started: number,
    status: IncidentCallObservation['status'],
    retry: boolean,
  ): void {
    try {
      this.options.observer?.({
        operation: spec.operation,
        method: spec.method,
        status,
        retry,
        durationMs: performance.now() - started,
      });
    } catch {
      // an observer's failure never fails the call
    }
  }

  private headers(spec: RequestSpec<unknown>): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent ?? DEFAULT_USER_AGENT,
      ...spec.options?.headers,
      'x-api-key': this.options.apiKey,
    };
    if (spec.body?.kind === 'json') headers['content-type'] = 'application/json';
    if (spec.body?.kind === 'bytes') headers['content-type'] = spec.body.contentType;
    return headers;
  }

  private async attempt(
    spec: RequestSpec<unknown>,
  ): Promise<
    | { kind: 'response'; status: number; headers: Headers; body: unknown }
    | { kind: 'failure'; attempt: AttemptOutcome; error: Error; headers?: Headers }
  > {
    const userSignal = this.abortSignal(spec);
    if (userSignal?.aborted) {
      return {
        kind: 'failure',
        attempt: { kind: 'aborted' },
        error: new APIUserAbortError(spec.operation),
      };
    }
    const timeoutMs = spec.options?.timeoutMs ?? this.timeoutMs;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = userSignal ? AbortSignal.any([userSignal, timeout.signal]) : timeout.signal;
    const body =
      spec.body?.kind === 'json'
        ? JSON.stringify(spec.body.value)
        : spec.body?.kind === 'bytes'
          ? spec.body.value
          : undefined;
    try {
      const response = await this.fetch(this.url(spec.path, spec.query), {
        method: spec.method,
        headers: this.headers(spec),
        body,
        signal,
        // never followed: a redirect would carry x-api-key and the body to another address
        redirect: 'manual',
      });
      // the body is read under the same timeout: a stalled body is a timeout too
      const responseBody = await readBody(response);
      if (response.ok) {
        return {
          kind: 'response',
          status: response.status,
          headers: response.headers,
          body: responseBody,
        };
      }
      const init = {
        status: response.status,
        body: responseBody,
        headers: response.headers,
        requestId: requestIdOf(response.headers),
        operation: spec.operation,
      };
      const error = isRedirect(response.status)
        ? new RedirectRefusedError({ ...init, baseOrigin: new URL(this.baseURL).origin })
        : errorFromResponse(init);
      return {
        kind: 'failure',
        attempt: { kind: 'status', status: response.status },
        error,
        headers: response.headers,
      };
    } catch (cause) {
      if (userSignal?.aborted) {
        return {
          kind: 'failure',
          attempt: { kind: 'aborted' },
          error: new APIUserAbortError(spec.operation),
        };
      }
      if (timeout.signal.aborted) {
        return {
          kind: 'failure',
          attempt: { kind: 'timeout' },
          error: new APITimeoutError(spec.operation, timeoutMs),
        };
      }
      return {
        kind: 'failure',
        attempt: { kind: 'connection' },
        error: new APIConnectionError(spec.operation, { cause }),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  private parse<T>(
    spec: RequestSpec<T>,
    response: { status: number; headers: Headers; body: unknown },
  ): RawResult<T> {
    const requestId = requestIdOf(response.headers);
    const parsed = spec.schema.safeParse(response.body);
    if (!parsed.success) {
      throw new ResponseValidationError(
        spec.operation,
        response.status,
        response.body,
        requestId,
        parsed.error.issues,
      );
    }
    return { data: parsed.data, status: response.status, headers: response.headers, requestId };
  }
}

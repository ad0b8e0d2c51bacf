import type { z } from 'zod';
import { encodeQuery, type QueryValue } from './encode-path';
import { errorFromResponse, requestIdFrom } from './error-from-response';
import {
  ZendeskAbortError,
  ZendeskConnectionError,
  ZendeskError,
  ZendeskRedirectError,
  ZendeskResponseValidationError,
  ZendeskTimeoutError,
} from './errors';
import type {
  ResolvedClientOptions,
  ZendeskCallObservation,
  ZendeskRequestOptions,
} from './options';
import { decideRetry, type RetryOutcome } from './retry-policy';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface TransportRequest {
  method: HttpMethod;
  /** Already percent-encoded (see encodePath), relative to baseUrl. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  /** Used instead of baseUrl + path, e.g. for an attachment's content_url. */
  absoluteUrl?: URL | undefined;
  json?: unknown;
  binary?: { data: Uint8Array | ArrayBuffer | Blob; contentType: string } | undefined;
  /** Send the bearer token (and refresh it once on a 401). Default: true. */
  authenticate?: boolean | undefined;
  /** Whether a 5xx / connection failure may be retried. Default: by method. */
  idempotent?: boolean | undefined;
  /** The OAuth scope this call needs, reported on a 403 whose body names none. */
  requiredScope?: string | undefined;
  headers?: Record<string, string> | undefined;
  options?: ZendeskRequestOptions | undefined;
  /** Sends this request with another fetch (an attachment host's checked connections). */
  fetch?: typeof fetch | undefined;
  /**
   * A 3xx is returned to the caller, who decides where to go next (attachment downloads).
   * Otherwise a redirect fails with ZendeskRedirectError: it is never followed.
   */
  returnRedirects?: boolean | undefined;
}

interface Attempt {
  response: Response;
  text: string | undefined;
}

/**
 * Sends requests with the client's single policy for auth, retries, timeouts and errors.
 * Nothing outside this file calls fetch.
 */
export class HttpTransport {
  constructor(private readonly config: ResolvedClientOptions) {}

  /** A 2xx JSON response parsed with `schema`. */
  async json<S extends z.ZodType>(request: TransportRequest, schema: S): Promise<z.output<S>> {
    const { response, text } = await this.execute(request, true);
    const body = text === undefined || text === '' ? undefined : safeJsonParse(text);
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new ZendeskResponseValidationError({
        status: response.status,
        body,
        requestId: requestIdFrom(response.headers),
        error: parsed.error,
        method: request.method,
        path: request.absoluteUrl?.pathname ?? request.path,
      });
    }
    return parsed.data;
  }

  /** A 2xx response whose body is ignored (204 on DELETE). */
  async empty(request: TransportRequest): Promise<void> {
    await this.execute(request, true);
  }

  /**
   * A 2xx response with its body unread, for streaming. The per-attempt timeout keeps running
   * while the caller reads, so pass a generous `timeoutMs` for large downloads.
   */
  async raw(request: TransportRequest): Promise<Response> {
    return (await this.execute(request, false)).response;
  }

  isSameOriginAsBase(url: URL): boolean {
    return url.origin === new URL(this.config.baseUrl).origin;
  }

  private async execute(request: TransportRequest, readText: boolean): Promise<Attempt> {
    const { config } = this;
    const options = request.options ?? {};
    const authenticate = request.authenticate ?? true;
    const idempotent =
      options.idempotent ??
      request.idempotent ??
      isIdempotentMethod(request.method, config.retryPolicy.retryNonIdempotent);
    const policy = {
      ...config.retryPolicy,
      maxRetries: options.maxRetries ?? config.retryPolicy.maxRetries,
      retryRateLimited: options.retryRateLimited ?? config.retryPolicy.retryRateLimited,
    };
    const url =
      request.absoluteUrl ?? new URL(config.baseUrl + request.path + encodeQuery(request.query));
    const path = url.pathname;

    const abort =
      options.signal && config.signal
        ? AbortSignal.any([options.signal, config.signal])
        : (options.signal ?? config.signal);

    // a stopping worker or a timed-out job does not sleep out a retry's wait
    const pause = async (ms: number) => {
      try {
        await config.sleep(ms, abort);
      } catch (cause) {
        throw new ZendeskAbortError(undefined, { cause });
      }
    };
    let refreshedToken: string | undefined;
    let retriesDone = 0;
    const endpoint = endpointOf(request, url, config.baseUrl);
    let started = 0;
    const observe = (status: ZendeskCallObservation['status'], retry: boolean) => {
      try {
        config.observer?.({
          method: request.method,
          endpoint,
          status,
          retry,
          durationMs: performance.now() - started,
        });
      } catch {
        // an observer's failure never fails the call
      }
    };
    for (;;) {
      if (abort?.aborted) throw new ZendeskAbortError(undefined, { cause: abort.reason });
      const token = authenticate
        ? (refreshedToken ?? (await config.tokenProvider.getAccessToken()))
        : undefined;
      const timeoutMs = options.timeoutMs ?? config.timeoutMs;
      const timeoutSignal = AbortSignal.timeout(timeoutMs);
      const signal = abort ? AbortSignal.any([abort, timeoutSignal]) : timeoutSignal;

      let attempt: Attempt;
      started = performance.now();
      try {
        const response = await (request.fetch ?? config.fetch)(url, {
          method: request.method,
          headers: this.headersFor(request, token),
          body: bodyOf(request),
          signal,
          // never followed here: the token and the body would go wherever Location points
          redirect: 'manual',
        });
        if (isRedirect(response.status)) {
          observe(response.status, false);
          await response.body?.cancel().catch(() => undefined);
          if (request.returnRedirects) return { response, text: undefined };
          throw new ZendeskRedirectError({
            status: response.status,
            method: request.method,
            path,
            location: response.headers.get('location'),
            baseOrigin: new URL(config.baseUrl).origin,
          });
        }
        attempt = { response, text: readText || !response.ok ? await response.text() : undefined };
      } catch (cause) {
        if (cause instanceof ZendeskError) throw cause;
        if (abort?.aborted) throw new ZendeskAbortError(undefined, { cause });
        // a refusal raised inside the connection (e.g. an attachment host's address check)
        const refusal = zendeskErrorIn(cause);
        if (refusal) throw refusal;
        const failure = timeoutSignal.aborted
          ? new ZendeskTimeoutError(
              `Request timed out after ${timeoutMs} ms (${request.method} ${path})`,
              { cause },
            )
          : new ZendeskConnectionError(
              `Connection error (${request.method} ${path}): ${messageOf(cause)}`,
              { cause },
            );
        const decision = decideRetry(
          { retriesDone, idempotent, outcome: { kind: 'connection' } },
          policy,
        );
        observe(timeoutSignal.aborted ? 'timeout' : 'connection', decision.retry);
        if (!decision.retry) throw failure;
        retriesDone += 1;
        await pause(decision.delayMs);
        continue;
      }

      const { response } = attempt;
      if (response.ok) {
        observe(response.status, false);
        return attempt;
      }

      // One refresh per call: a second 401 means the new token is refused too.
      if (response.status === 401 && token !== undefined && refreshedToken === undefined) {
        observe(response.status, true);
        refreshedToken = await config.tokenProvider.refreshAfterUnauthorized(token);
        continue;
      }

      const outcome: RetryOutcome = {
        kind: 'status',
        status: response.status,
        headers: response.headers,
      };
      const decision = decideRetry({ retriesDone, idempotent, outcome }, policy);
      observe(response.status, decision.retry);
      if (decision.retry) {
        retriesDone += 1;
        await pause(decision.delayMs);
        continue;
      }
      throw errorFromResponse({
        status: response.status,
        headers: response.headers,
        bodyText: attempt.text ?? '',
        method: request.method,
        path,
        requiredScope: request.requiredScope,
      });
    }
  }

  private headersFor(request: TransportRequest, token: string | undefined): Headers {
    const headers = new Headers(this.config.defaultHeaders);
    for (const [name, value] of Object.entries({
      ...request.headers,
      ...request.options?.headers,
    })) {
      headers.set(name, value);
    }
    if (request.json !== undefined) headers.set('content-type', 'application/json');
    if (request.binary) headers.set('content-type', request.binary.contentType);
    // Set last so an extra header can never replace the provider's token.
    if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
    return headers;
  }
}

function bodyOf(request: TransportRequest): RequestInit['body'] {
  if (request.json !== undefined) return JSON.stringify(request.json);
  if (request.binary) return request.binary.data;
  return undefined;
}

/**
 * The path as a bounded label: segments that are ids (all digits, or long and holding a digit,
 * like a job status id) become `{id}`; a URL on another origin (an attachment host) is `external`.
 */
function endpointOf(request: TransportRequest, url: URL, baseUrl: string): string {
  if (request.absoluteUrl && url.origin !== new URL(baseUrl).origin) return 'external';
  const path = request.absoluteUrl ? url.pathname : request.path.split('?')[0]!;
  return path
    .split('/')
    .map((segment) => {
      const [name, ...extension] = segment.split('.');
      const isId = /^\d+$/.test(name!) || (name!.length >= 16 && /\d/.test(name!));
      return isId ? ['{id}', ...extension].join('.') : segment;
    })
    .join('/');
}

const isRedirect = (status: number) => status >= 300 && status < 400;

function zendeskErrorIn(error: unknown): ZendeskError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    if (current instanceof ZendeskError) return current;
    current = current.cause;
  }
  return undefined;
}

function isIdempotentMethod(method: HttpMethod, retryNonIdempotent: boolean): boolean {
  return method !== 'POST' || retryNonIdempotent;
}

function safeJsonParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

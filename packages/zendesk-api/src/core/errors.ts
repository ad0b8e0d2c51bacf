import type { ZodError } from 'zod';

/** Base class of every error this package throws. */
export class ZendeskError extends Error {
  override name = 'ZendeskError';
}

export interface ZendeskApiErrorInit {
  status: number;
  headers: Headers;
  body: unknown;
  method: string;
  path: string;
  error?: string | undefined;
  description?: string | undefined;
  details?: unknown;
  requestId?: string | undefined;
}

/** One code per error class, to switch on without instanceof (mirrors incident-api's `code`). */
export type TZendeskApiErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'record_not_found'
  | 'conflict'
  | 'record_invalid'
  | 'rate_limited'
  | 'server_error'
  | 'unexpected_status';

/** Zendesk answered with a non-2xx status. Subclasses narrow the status. */
export class ZendeskApiError extends ZendeskError {
  override name = 'ZendeskApiError';
  readonly code: TZendeskApiErrorCode = 'unexpected_status';
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  readonly body: unknown;
  /** Zendesk's `error` code, e.g. `RecordInvalid`, `RecordNotFound`, `invalid_token`. */
  readonly error: string | undefined;
  /** Zendesk's `description` (or OAuth `error_description`). */
  readonly description: string | undefined;
  /** Zendesk's `details` (per-field errors for RecordInvalid) or `errors` array. */
  readonly details: unknown;
  readonly requestId: string | undefined;
  readonly method: string;
  /** Path without the query string, so search terms and tokens never end up in logs. */
  readonly path: string;

  constructor(init: ZendeskApiErrorInit) {
    super(formatMessage(init));
    this.status = init.status;
    this.headers = init.headers;
    this.body = init.body;
    this.error = init.error;
    this.description = init.description;
    this.details = init.details;
    this.requestId = init.requestId;
    this.method = init.method;
    this.path = init.path;
  }
}

function formatMessage(init: ZendeskApiErrorInit): string {
  const code = init.error ? ` ${init.error}` : '';
  const description = init.description ? `: ${init.description}` : '';
  const requestId = init.requestId ? ` [request id ${init.requestId}]` : '';
  return `${init.status}${code}${description}${detailsOf(init.details)} (${init.method} ${init.path})${requestId}`;
}

/**
 * RecordInvalid's per-field descriptions ("Status: closed prevents ticket update"): the general
 * description alone ("Record validation errors") does not say what to fix.
 */
function detailsOf(details: unknown): string {
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return '';
  const descriptions = Object.values(details)
    .flatMap((errors: unknown) => (Array.isArray(errors) ? (errors as unknown[]) : []))
    .map((error) =>
      typeof error === 'object' && error !== null && 'description' in error
        ? error.description
        : undefined,
    )
    .filter((text): text is string => typeof text === 'string' && text.length > 0);
  return descriptions.length > 0 ? `: ${descriptions.slice(0, 3).join('; ')}` : '';
}

/** A subclass of `ZendeskApiError` for one status: its own name and code. */
function statusKind(name: string, code: TZendeskApiErrorCode): typeof ZendeskApiError {
  return class extends ZendeskApiError {
    override name = name;
    override readonly code: TZendeskApiErrorCode = code;
  };
}

export class ZendeskBadRequestError extends statusKind('ZendeskBadRequestError', 'bad_request') {}

/** 401: the access token is expired, revoked or invalid (`invalid_token`), even after one refresh. */
export class ZendeskUnauthorizedError extends statusKind(
  'ZendeskUnauthorizedError',
  'unauthorized',
) {
  get isInvalidToken(): boolean {
    return this.error === 'invalid_token';
  }
}

/** 403. `missingScope` is set when the response or the call names the OAuth scope that is lacking. */
export class ZendeskForbiddenError extends statusKind('ZendeskForbiddenError', 'forbidden') {
  readonly missingScope: string | undefined;
  constructor(init: ZendeskApiErrorInit & { missingScope?: string | undefined }) {
    super(init);
    this.missingScope = init.missingScope;
    if (init.missingScope) this.message = `${this.message} (missing scope: ${init.missingScope})`;
  }
}

export class ZendeskRecordNotFoundError extends statusKind(
  'ZendeskRecordNotFoundError',
  'record_not_found',
) {}

/** 409, e.g. a `safe_update` whose `updated_stamp` no longer matches. */
export class ZendeskConflictError extends statusKind('ZendeskConflictError', 'conflict') {}

export type TZendeskFieldErrors = Record<string, { description?: string; error?: string }[]>;

/** 422 RecordInvalid: `details` maps each field to its errors. */
export class ZendeskRecordInvalidError extends statusKind(
  'ZendeskRecordInvalidError',
  'record_invalid',
) {
  get fieldErrors(): TZendeskFieldErrors {
    return isRecord(this.details) ? (this.details as TZendeskFieldErrors) : {};
  }
}

/** 429 that was not retried (retries exhausted, or Retry-After beyond the configured cap). */
export class ZendeskRateLimitedError extends statusKind('ZendeskRateLimitedError', 'rate_limited') {
  /** Seconds from Retry-After, when Zendesk sent a usable value. */
  readonly retryAfterSeconds: number | undefined;
  constructor(init: ZendeskApiErrorInit & { retryAfterSeconds?: number | undefined }) {
    super(init);
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

export class ZendeskServerError extends statusKind('ZendeskServerError', 'server_error') {}

/** The request never produced a response: DNS, refused or reset connection, body read failure. */
export class ZendeskConnectionError extends ZendeskError {
  override name = 'ZendeskConnectionError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The per-attempt timeout elapsed. */
export class ZendeskTimeoutError extends ZendeskConnectionError {
  override name = 'ZendeskTimeoutError';
}

/** The caller's AbortSignal fired; never retried. */
export class ZendeskAbortError extends ZendeskError {
  override name = 'ZendeskAbortError';
  constructor(message = 'Request aborted', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A 2xx response whose body does not match the expected shape. */
export class ZendeskResponseValidationError extends ZendeskError {
  override name = 'ZendeskResponseValidationError';
  readonly status: number;
  readonly body: unknown;
  readonly requestId: string | undefined;
  readonly issues: ZodError['issues'];
  constructor(init: {
    status: number;
    body: unknown;
    requestId: string | undefined;
    error: ZodError;
    method: string;
    path: string;
  }) {
    super(`Unexpected response shape from ${init.method} ${init.path}: ${init.error.message}`, {
      cause: init.error,
    });
    this.status = init.status;
    this.body = init.body;
    this.requestId = init.requestId;
    this.issues = init.error.issues;
  }
}

/** A request value failed the strict request schema; nothing was sent. */
export class ZendeskRequestValidationError extends ZendeskError {
  override name = 'ZendeskRequestValidationError';
  readonly issues: ZodError['issues'] | undefined;
  constructor(message: string, error?: ZodError) {
    super(error ? `${message}: ${error.message}` : message, error ? { cause: error } : undefined);
    this.issues = error?.issues;
  }
}

/** An attachment exceeded `maxBytes` (by Content-Length or while streaming). */
export class ZendeskAttachmentTooLargeError extends ZendeskError {
  override name = 'ZendeskAttachmentTooLargeError';
  readonly maxBytes: number;
  readonly size: number | undefined;
  constructor(maxBytes: number, size?: number) {
    super(
      size === undefined
        ? `Attachment exceeds the limit of ${maxBytes} bytes`
        : `Attachment of ${size} bytes exceeds the limit of ${maxBytes} bytes`,
    );
    this.maxBytes = maxBytes;
    this.size = size;
  }
}

/**
 * Zendesk answered an API call with a redirect. It is never followed: the bearer token (and a
 * request body) would go wherever `Location` points.
 */
export class ZendeskRedirectError extends ZendeskError {
  override name = 'ZendeskRedirectError';
  readonly status: number;
  /** The origin `Location` named, when it was a URL (never its path or query). */
  readonly locationOrigin: string | undefined;
  constructor(init: {
    status: number;
    method: string;
    path: string;
    location: string | null;
    baseOrigin: string;
  }) {
    const target = originOf(init.location, init.baseOrigin);
    super(
      `${init.method} ${init.path} answered ${init.status}${target ? ` redirecting to ${target}` : ''}; ` +
        `redirects are not followed, so the token stays with ${init.baseOrigin}`,
    );
    this.status = init.status;
    this.locationOrigin = target;
  }
}

export type TAttachmentRefusal =
  /** the host is neither the account's own origin nor one of the allowed attachment hosts */
  | 'host_not_allowed'
  /** an allowed attachment host over plain http */
  | 'not_https'
  /** the host resolved to a loopback, private, link-local or other non-public address */
  | 'private_address'
  | 'too_many_redirects'
  | 'bad_redirect';

/** An attachment source the client will not download from (see `attachmentSources`). */
export class ZendeskAttachmentRefusedError extends ZendeskError {
  override name = 'ZendeskAttachmentRefusedError';
  readonly reason: TAttachmentRefusal;
  /** The host refused (host[:port]); no path or query, which may carry a token. */
  readonly host: string | undefined;
  constructor(reason: TAttachmentRefusal, host?: string) {
    super(`Attachment download refused (${reason.replace(/_/g, ' ')})${host ? `: ${host}` : ''}`);
    this.reason = reason;
    this.host = host;
  }
}

function originOf(location: string | null, base: string): string | undefined {
  if (!location) return undefined;
  try {
    return new URL(location, base).origin;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

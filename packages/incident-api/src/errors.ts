import type { z } from 'zod';
import { formatIssues } from './schemas/requests/format-issues';

/** Base of everything the client throws. */
export class IncidentApiError extends Error {
  override readonly name: string = 'IncidentApiError';
}

/** Our own request failed the strict writer schema; nothing was sent. */
export class RequestValidationError extends IncidentApiError {
  override readonly name: string = 'RequestValidationError';
  constructor(
    readonly issues: readonly z.core.$ZodIssue[],
    what = 'request',
  ) {
    super(`invalid ${what}: ${formatIssues(issues)}`);
  }
}

/** One code per row of the spec's Errors table, plus the generic ones. */
export type ApiErrorCode =
  | 'invalid_parameter'
  | 'unauthorized'
  | 'resolutions_forbidden'
  | 'insufficient_credits'
  | 'permission_denied'
  | 'not_found'
  | 'duplicate_incident'
  | 'not_awaiting_approval'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'temporarily_unavailable'
  | 'server_error'
  | 'redirect_refused'
  | 'unexpected_status';

export interface ApiErrorInit {
  status: number;
  body: unknown;
  headers: Headers;
  requestId: string | undefined;
  /** client operation that failed, e.g. `resolutions.list` */
  operation: string;
  message?: string;
}

function serviceMessage(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
    return body.message;
  }
  return typeof body === 'string' && body.length > 0 && body.length < 500 ? body : undefined;
}

/** The service answered with an error status (or a 200 that means an error, see duplicates). */
export class APIError extends IncidentApiError {
  override readonly name: string = 'APIError';
  readonly code: ApiErrorCode = 'unexpected_status';
  readonly status: number;
  readonly body: unknown;
  readonly headers: Headers;
  readonly requestId: string | undefined;
  readonly operation: string;
  /** the service's human-readable message, when it sent one (never parse it) */
  readonly serviceMessage: string | undefined;

  constructor(init: ApiErrorInit) {
    const fromService = serviceMessage(init.body);
    super(
      `${init.operation}: ${init.status} ${init.message ?? fromService ?? 'status code without message'}` +
        (init.requestId ? ` (request ${init.requestId})` : ''),
    );
    this.status = init.status;
    this.body = init.body;
    this.headers = init.headers;
    this.requestId = init.requestId;
    this.operation = init.operation;
    this.serviceMessage = fromService;
  }
}

/**
 * One subclass per row of the spec's Errors table: its own name and code, nothing else, so a caller
 * can switch on `code` or test `instanceof` (a subclass of `PermissionDeniedError` is one too).
 */
function errorKind(Base: typeof APIError, name: string, code: ApiErrorCode): typeof APIError {
  return class extends Base {
    override readonly name: string = name;
    override readonly code: ApiErrorCode = code;
  };
}

/** 400 (and 422): a parameter the service rejected. */
export class InvalidParameterError extends errorKind(
  APIError,
  'InvalidParameterError',
  'invalid_parameter',
) {}

/** 401: missing or invalid key, or a clientId the key is not authorised for. */
export class UnauthorizedError extends errorKind(APIError, 'UnauthorizedError', 'unauthorized') {}

/** 403 on other endpoints (scopes other than incidents:read are not shown). */
export class PermissionDeniedError extends errorKind(
  APIError,
  'PermissionDeniedError',
  'permission_denied',
) {}

/** 403 on resolutions: resolution history not enabled for the account, or no incidents:read scope. */
export class ResolutionsForbiddenError extends errorKind(
  PermissionDeniedError,
  'ResolutionsForbiddenError',
  'resolutions_forbidden',
) {}

/** 403 on approve-takedown: insufficient or expired takedown credits. */
export class InsufficientCreditsError extends errorKind(
  PermissionDeniedError,
  'InsufficientCreditsError',
  'insufficient_credits',
) {}

/** 404: no such incident on the account (on resolutions: an incident on the page was not found). */
export class NotFoundError extends errorKind(APIError, 'NotFoundError', 'not_found') {}

export class ConflictError extends errorKind(APIError, 'ConflictError', 'conflict') {}

/** A report of an incident that already exists: 409, or 200 without `id` (older processing path). */
export class DuplicateIncidentError extends errorKind(
  ConflictError,
  'DuplicateIncidentError',
  'duplicate_incident',
) {}

/** 409 on approve-takedown: already approved or never requested. */
export class NotAwaitingApprovalError extends errorKind(
  ConflictError,
  'NotAwaitingApprovalError',
  'not_awaiting_approval',
) {}

/** 413: the request was over the service's size limit (reports: under 10 MB in total). */
export class PayloadTooLargeError extends errorKind(
  APIError,
  'PayloadTooLargeError',
  'payload_too_large',
) {}

/** 429 (rate limits are not shown in the spec; handled like a temporary failure). */
export class RateLimitError extends errorKind(APIError, 'RateLimitError', 'rate_limited') {}

/** 502 / 503: history, credit data or approval temporarily unavailable; retry later. */
export class TemporarilyUnavailableError extends errorKind(
  APIError,
  'TemporarilyUnavailableError',
  'temporarily_unavailable',
) {}

/** Any other 5xx. */
export class InternalServerError extends errorKind(
  APIError,
  'InternalServerError',
  'server_error',
) {}

/**
 * A 3xx: the client never follows a redirect, since following one would carry the API key and the
 * request body to wherever `Location` points. The configured base URL is wrong or the service moved.
 */
export class RedirectRefusedError extends APIError {
  override readonly name: string = 'RedirectRefusedError';
  override readonly code: ApiErrorCode = 'redirect_refused';
  /** The origin `Location` named, when it was a URL (never its path or query). */
  readonly locationOrigin: string | undefined;

  constructor(init: ApiErrorInit & { baseOrigin: string }) {
    const target = locationOriginOf(init.headers, init.baseOrigin);
    super({
      ...init,
      message:
        `redirect${target ? ` to ${target}` : ''} not followed: the API key and request body ` +
        `are sent only to ${init.baseOrigin}; point the base URL at the address the service answers on`,
    });
    this.locationOrigin = target;
  }
}

function locationOriginOf(headers: Headers, base: string): string | undefined {
  const location = headers.get('location');
  if (!location) return undefined;
  try {
    return new URL(location, base).origin;
  } catch {
    return undefined;
  }
}

/** No HTTP answer: DNS, refused or reset connection. */
export class APIConnectionError extends IncidentApiError {
  override readonly name: string = 'APIConnectionError';
  constructor(
    readonly operation: string,
    options: { cause?: unknown; message?: string } = {},
  ) {
    super(`${operation}: ${options.message ?? 'connection error'}`, { cause: options.cause });
  }
}

/** No answer within the timeout (per attempt). */
export class APITimeoutError extends APIConnectionError {
  override readonly name = 'APITimeoutError';
  constructor(operation: string, timeoutMs: number) {
    super(operation, { message: `no response within ${timeoutMs} ms` });
  }
}

/** The caller's AbortSignal fired. */
export class APIUserAbortError extends IncidentApiError {
  override readonly name = 'APIUserAbortError';
  constructor(readonly operation: string) {
    super(`${operation}: aborted by the caller`);
  }
}

/** A 2xx answer that does not match even the tolerant reader schema. */
export class ResponseValidationError extends IncidentApiError {
  override readonly name = 'ResponseValidationError';
  constructor(
    readonly operation: string,
    readonly status: number,
    readonly body: unknown,
    readonly requestId: string | undefined,
    readonly issues: readonly z.core.$ZodIssue[],
  ) {
    super(`${operation}: unexpected response (${status}): ${formatIssues(issues)}`);
  }
}

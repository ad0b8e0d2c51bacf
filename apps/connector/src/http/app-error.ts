// One error type for every answer the connector refuses (receivers, admin API, sidebar API): a
// stable code, the HTTP status the code means (one table), and one writer of the JSON envelope
// `{ error: { code, message, retryAfterSeconds? } }`. The code is also the reason on the request's
// log line (request-logging.ts). Only type imports of Express: sync/ may import this module.
import type { ErrorRequestHandler, Response } from 'express';
import { type Logger, logger as processLogger } from '../log';

/** Every error code the connector answers with, and the HTTP status it means by default. */
const ERROR_STATUS = {
  // the request itself
  bad_request: 400,
  malformed_json: 400,
  malformed_event: 400,
  invalid_body: 400,
  invalid_value: 400,
  invalid_request: 400,
  invalid_settings: 400,
  invalid_own_domains: 400,
  invalid_connection: 400,
  invalid_account_id: 400,
  missing_account_id: 400,
  api_key_required: 400,
  no_threat: 400,
  missing_occurrence: 400,
  invalid_incident_id: 400,
  unknown_chart: 400,
  payload_too_large: 413,
  unsupported_media_type: 415,
  payload_too_deep: 422,
  unstorable_payload: 422,
  threat_not_in_ticket: 422,
  unknown_incident: 422,
  // webhook signatures (incident service and Zendesk): a missing or wrong signature is 401
  missing_headers: 401,
  bad_signature: 401,
  missing_signature: 401,
  signature_mismatch: 401,
  missing_timestamp: 400,
  invalid_timestamp: 400,
  stale_timestamp: 400,
  future_timestamp: 400,
  // who is asking
  unknown_account: 401,
  metrics_token_required: 401,
  unknown_subscription: 401,
  invalid_session: 401,
  agent_not_in_account: 401,
  not_signed_in: 401,
  not_admin: 401,
  role_unconfirmed: 401,
  csrf: 403,
  read_only: 403,
  forbidden: 403,
  author_mismatch: 403,
  account_mismatch: 403,
  no_credits: 403,
  // what is asked for
  not_found: 404,
  metrics_disabled: 404,
  ticket_not_found: 404,
  incident_not_found: 404,
  forward_not_found: 404,
  no_existing_incident: 404,
  unknown_client: 404,
  conflict: 409,
  already_linked: 409,
  in_progress: 409,
  not_linked: 409,
  not_unlinked: 409,
  link_failed: 409,
  link_conflict: 409,
  followed_elsewhere: 409,
  not_awaiting_approval: 409,
  no_incident_service: 409,
  no_subscription: 409,
  groups_not_readable: 409,
  authorization_needed: 409,
  reauthorization_required: 412,
  disconnected: 412,
  not_configured: 412,
  api_key_refused: 422,
  client_not_covered: 422,
  // an account's webhook deliveries beyond their rate (Retry-After says when)
  rate_limited: 429,
  // the connector or a service behind it
  internal_error: 500,
  not_implemented: 501,
  zendesk_unavailable: 502,
  // Zendesk's limits hold the account's ticket updates back (Retry-After says when)
  zendesk_limited: 503,
  incident_unreachable: 502,
  incident_check_failed: 502,
  unavailable: 503,
  retry_later: 503,
} as const satisfies Record<string, number>;

export type AppErrorCode = keyof typeof ERROR_STATUS;

/** The parts of an error answer; an AppError is one, and so is a plain object of this shape. */
export interface ErrorAnswer {
  status: number;
  code: string;
  message: string;
  /** Sent as `Retry-After` and in the body (whole seconds). */
  retryAfterSeconds?: number;
}

export interface AppErrorOptions {
  message: string;
  /** Only where one code answers with two statuses (a webhook's signature, a role re-check). */
  status?: number;
  retryAfterSeconds?: number;
}

export class AppError extends Error implements ErrorAnswer {
  override readonly name = 'AppError';
  readonly code: AppErrorCode;
  readonly status: number;
  readonly retryAfterSeconds?: number;

  constructor(code: AppErrorCode, options: AppErrorOptions) {
    super(options.message);
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** The one writer of the error envelope. `extra` adds top-level fields (e.g. `authorizeUrl`). */
export function sendAppError(
  res: Response,
  error: ErrorAnswer,
  extra: Record<string, unknown> = {},
): void {
  res.locals.errorCode = error.code;
  if (error.retryAfterSeconds !== undefined)
    res.setHeader('Retry-After', String(error.retryAfterSeconds));
  res.status(error.status).json({
    error: {
      code: error.code,
      message: error.message,
      ...(error.retryAfterSeconds === undefined
        ? {}
        : { retryAfterSeconds: error.retryAfterSeconds }),
    },
    ...extra,
  });
}

export function sendError(
  res: Response,
  code: AppErrorCode,
  message: string,
  options: Omit<AppErrorOptions, 'message'> = {},
): void {
  sendAppError(res, new AppError(code, { ...options, message }));
}

/**
 * The database cannot take the delivery right now (e.g. PostgreSQL restarting). Zendesk retries a
 * webhook only on 409, or on 429/503 carrying Retry-After, so the 503 always carries it.
 */
export function sendUnavailable(res: Response, message: string, retryAfterSeconds = 10): void {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  sendError(res, 'unavailable', message);
}

/**
 * A thrown AppError is answered as itself; body-parser failures (size, encoding) and anything
 * unexpected are answered without a stack.
 */
export function createErrorHandler(logger: Logger = processLogger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (error instanceof AppError) return sendAppError(res, error);
    const status = typeof error?.status === 'number' ? (error.status as number) : 500;
    if (status === 413) return sendError(res, 'payload_too_large', 'request body is too large');
    if (status >= 400 && status < 500)
      return sendError(res, 'bad_request', 'request could not be read', { status });
    logger.error('unhandled request error', { method: req.method, path: req.path, error });
    sendError(res, 'internal_error', 'internal error');
  };
}

export const errorHandler: ErrorRequestHandler = createErrorHandler();

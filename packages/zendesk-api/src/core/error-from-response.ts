import {
  ZendeskApiError,
  type ZendeskApiErrorInit,
  ZendeskBadRequestError,
  ZendeskConflictError,
  ZendeskForbiddenError,
  ZendeskRateLimitedError,
  ZendeskRecordInvalidError,
  ZendeskRecordNotFoundError,
  ZendeskServerError,
  ZendeskUnauthorizedError,
} from './errors';
import { parseRetryAfterMs } from '@incident-desk/client-core';

export interface ErrorResponse {
  status: number;
  headers: Headers;
  bodyText: string;
  method: string;
  path: string;
  /** The scope the call is known to need, used when a 403 body does not name one. */
  requiredScope?: string | undefined;
}

/** The one place where an HTTP status becomes an error class. */
export function errorFromResponse(response: ErrorResponse): ZendeskApiError {
  const body = parseBody(response.bodyText);
  const init: ZendeskApiErrorInit = {
    status: response.status,
    headers: response.headers,
    body,
    method: response.method,
    path: response.path,
    requestId: requestIdFrom(response.headers),
    ...envelopeFields(body),
  };
  switch (response.status) {
    case 400:
      return new ZendeskBadRequestError(init);
    case 401:
      return new ZendeskUnauthorizedError(init);
    case 403:
      return new ZendeskForbiddenError({
        ...init,
        missingScope:
          scopeFromHeader(response.headers) ?? scopeFromBody(body) ?? response.requiredScope,
      });
    case 404:
      return new ZendeskRecordNotFoundError(init);
    case 409:
      return new ZendeskConflictError(init);
    case 422:
      return new ZendeskRecordInvalidError(init);
    case 429:
      return new ZendeskRateLimitedError({
        ...init,
        retryAfterSeconds: secondsOf(parseRetryAfterMs(response.headers.get('retry-after'))),
      });
    default:
      return response.status >= 500 ? new ZendeskServerError(init) : new ZendeskApiError(init);
  }
}

export function requestIdFrom(headers: Headers): string | undefined {
  return headers.get('x-request-id') ?? headers.get('x-zendesk-request-id') ?? undefined;
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Zendesk uses several envelopes: `{error, description, details}` (Support API),
 * `{error, error_description}` (OAuth), `{error: {title, message}}` (some endpoints) and
 * `{errors: [{code, title, detail}]}` (webhooks API). Read all of them tolerantly.
 */
function envelopeFields(
  body: unknown,
): Pick<ZendeskApiErrorInit, 'error' | 'description' | 'details'> {
  if (!isRecord(body)) return {};
  const nested = isRecord(body.error) ? body.error : undefined;
  const firstListed =
    Array.isArray(body.errors) && isRecord(body.errors[0]) ? body.errors[0] : undefined;
  return {
    error:
      stringOf(body.error) ??
      stringOf(nested?.title) ??
      stringOf(firstListed?.code) ??
      stringOf(firstListed?.title),
    description:
      stringOf(body.description) ??
      stringOf(body.error_description) ??
      stringOf(nested?.message) ??
      stringOf(firstListed?.detail) ??
      stringOf(body.message),
    details: body.details ?? body.errors,
  };
}

// RFC 6750: WWW-Authenticate: Bearer error="insufficient_scope", scope="users:read"
function scopeFromHeader(headers: Headers): string | undefined {
  const header = headers.get('www-authenticate');
  if (!header || !/insufficient_scope/i.test(header)) return undefined;
  return /scope="([^"]+)"/i.exec(header)?.[1];
}

const SCOPE_PATTERN = /\b([a-z_]+:(?:read|write))\b/i;

function scopeFromBody(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return SCOPE_PATTERN.exec(text)?.[1]?.toLowerCase();
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function secondsOf(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : ms / 1000;
}

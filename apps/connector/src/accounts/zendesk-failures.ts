// What a failed Zendesk call means, asked by name: the other folders classify Zendesk's failures
// here and never hold the client's error classes themselves.
import {
  type TAttachmentRefusal,
  ZendeskAbortError,
  ZendeskApiError,
  ZendeskAttachmentRefusedError,
  ZendeskAttachmentTooLargeError,
  ZendeskConnectionError,
  ZendeskError,
  ZendeskForbiddenError,
  ZendeskRateLimitedError,
  ZendeskRecordNotFoundError,
  ZendeskRequestValidationError,
  ZendeskServerError,
  ZendeskTimeoutError,
  ZendeskUnauthorizedError,
} from '@incident-desk/zendesk-api';
import { DEFAULT_RATE_LIMIT_DELAY_MS, JobDeferral } from '../jobs';

/** Any failure of a Zendesk call (an answer, a lost connection, a refused download...). */
export function isZendeskFailure(error: unknown): boolean {
  return error instanceof ZendeskError;
}

/** Zendesk answered 404: the record does not exist (or no longer). */
export function isZendeskNotFound(error: unknown): boolean {
  return error instanceof ZendeskRecordNotFoundError;
}

/** Zendesk answered 403: the token may not do this. */
export function isZendeskForbidden(error: unknown): boolean {
  return error instanceof ZendeskForbiddenError;
}

/** Zendesk refused the token itself (401 after the client's refresh) or what it may do (403). */
export function isZendeskAccessRefused(error: unknown): boolean {
  return error instanceof ZendeskUnauthorizedError || error instanceof ZendeskForbiddenError;
}

/** No answer came from Zendesk: the connection failed or timed out. */
export function isZendeskUnreachable(error: unknown): boolean {
  return error instanceof ZendeskConnectionError;
}

/** A 429 from Zendesk, with the seconds its Retry-After asks for (undefined when it names none). */
export function zendeskRateLimitOf(
  error: unknown,
): { retryAfterSeconds: number | undefined } | null {
  return error instanceof ZendeskRateLimitedError
    ? { retryAfterSeconds: error.retryAfterSeconds }
    : null;
}

/** The deferral a Zendesk 429 asks of a job (its Retry-After); null for any other error. */
export function zendeskDeferralOf(error: unknown): JobDeferral | null {
  const limit = zendeskRateLimitOf(error);
  if (!limit) return null;
  return new JobDeferral(
    limit.retryAfterSeconds === undefined
      ? DEFAULT_RATE_LIMIT_DELAY_MS
      : limit.retryAfterSeconds * 1000,
    'Zendesk is limiting requests (429)',
  );
}

/**
 * A Zendesk failure worth retrying through the job queue: an abort (the job outran its timeout,
 * or the worker is shutting down: its retry decides), a lost connection, a rate limit, a 5xx, or a
 * 401 after the client's one refresh (the accounts layer decides whether re-authorisation is due).
 */
export function isTransientZendeskFailure(error: unknown): boolean {
  return (
    error instanceof ZendeskAbortError ||
    error instanceof ZendeskConnectionError ||
    error instanceof ZendeskRateLimitedError ||
    error instanceof ZendeskServerError ||
    error instanceof ZendeskUnauthorizedError
  );
}

/**
 * A Zendesk request that got no definite answer: a 5xx, a lost connection, a timeout or an abort.
 * A write may have been committed; the ticket writer looks for it before it writes again.
 */
export function isUnansweredZendeskRequest(error: unknown): boolean {
  return (
    error instanceof ZendeskServerError ||
    error instanceof ZendeskConnectionError ||
    (error instanceof ZendeskError && !(error instanceof ZendeskApiError))
  );
}

/** Why an attachment's download failed. */
export type ZendeskDownloadFailure =
  /** `size` undefined when only the download's stream showed it. */
  | { kind: 'too_large'; size: number | undefined }
  | { kind: 'refused'; refusal: TAttachmentRefusal }
  | { kind: 'gone' }
  | { kind: 'answered'; status: number }
  | { kind: 'timed_out' }
  | { kind: 'unreachable' }
  | { kind: 'bad_address' }
  | { kind: 'failed' };

export function zendeskDownloadFailure(error: unknown): ZendeskDownloadFailure {
  if (error instanceof ZendeskAttachmentTooLargeError)
    return { kind: 'too_large', size: error.size };
  if (error instanceof ZendeskAttachmentRefusedError)
    return { kind: 'refused', refusal: error.reason };
  if (error instanceof ZendeskRecordNotFoundError) return { kind: 'gone' };
  if (error instanceof ZendeskApiError) return { kind: 'answered', status: error.status };
  if (error instanceof ZendeskTimeoutError) return { kind: 'timed_out' };
  if (error instanceof ZendeskConnectionError) return { kind: 'unreachable' };
  if (error instanceof ZendeskRequestValidationError) return { kind: 'bad_address' };
  return { kind: 'failed' };
}

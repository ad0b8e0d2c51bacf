import {
  APIConnectionError,
  APIUserAbortError,
  IncidentApiError,
  InternalServerError,
  RateLimitError,
  TemporarilyUnavailableError,
} from '@incident-desk/incident-api';
import {
  ZendeskAbortError,
  ZendeskConnectionError,
  ZendeskError,
  ZendeskRateLimitedError,
  ZendeskServerError,
  ZendeskUnauthorizedError,
} from '@incident-desk/zendesk-api';

/** Errors from the two services that are worth a retry of the whole job. */
export function isTransientServiceError(error: unknown): boolean {
  return (
    // the job was stopped (it outran its timeout, or the worker is shutting down): its retry decides
    error instanceof ZendeskAbortError ||
    error instanceof APIUserAbortError ||
    error instanceof ZendeskConnectionError ||
    error instanceof ZendeskRateLimitedError ||
    error instanceof ZendeskServerError ||
    // the client already refreshed once; the accounts layer decides whether re-authorisation is due
    error instanceof ZendeskUnauthorizedError ||
    error instanceof APIConnectionError ||
    error instanceof RateLimitError ||
    error instanceof TemporarilyUnavailableError ||
    error instanceof InternalServerError
  );
}

/** A service answer that a retry will not change (404, 403, 422, an invalid request). */
export function isPermanentServiceError(error: unknown): boolean {
  if (isTransientServiceError(error)) return false;
  return error instanceof ZendeskError || error instanceof IncidentApiError;
}

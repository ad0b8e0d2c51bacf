// How an incident-service failure is handled depends on whether the service may have acted.
import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  InternalServerError,
  RateLimitError,
  TemporarilyUnavailableError,
} from '@incident-desk/incident-api';

/**
 * - `not_acted`: the service certainly did nothing and asks to come back later (429, 502/503);
 * - `unknown`: the request may have been processed (connection lost, timeout, aborted, other 5xx);
 * - `rejected`: the service answered with a definite refusal (4xx); repeating it changes nothing.
 */
export type IncidentFailureKind = 'not_acted' | 'unknown' | 'rejected';

export function incidentFailureKind(error: unknown): IncidentFailureKind {
  if (error instanceof RateLimitError || error instanceof TemporarilyUnavailableError) {
    return 'not_acted';
  }
  if (
    error instanceof APIConnectionError ||
    error instanceof APIUserAbortError ||
    error instanceof InternalServerError
  )
    return 'unknown';
  if (error instanceof APIError && error.status >= 500) return 'unknown';
  return 'rejected';
}

/** A failure worth retrying through the job queue (the service may answer differently later). */
export function isTransientIncidentFailure(error: unknown): boolean {
  return incidentFailureKind(error) !== 'rejected';
}

/** The service's own words when it gave any, else the error's. Shown to agents, never parsed. */
export function describeIncidentFailure(error: unknown): string {
  if (error instanceof APIError) {
    return `${error.status}${error.serviceMessage ? ` ${error.serviceMessage}` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}

// The one classifier of failures of the two services behind the connector (incident service,
// Zendesk): whether the incident service may have acted, and whether a job is worth trying again.
import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  IncidentApiError,
  InternalServerError,
  RateLimitError,
  TemporarilyUnavailableError,
} from '@incident-desk/incident-api';
import { isTransientZendeskFailure, isZendeskFailure } from '../accounts';

/**
 * - `not_acted`: the service certainly did nothing and asks to come back later (429, 503);
 * - `unknown`: the request may have been processed (502, 504, other 5xx, connection lost, timeout,
 *   aborted);
 * - `rejected`: the service answered with a definite refusal (4xx); repeating it changes nothing.
 *
 * Decided per status from what the spec allows. Writes take no idempotency key and a reporter "does
 * not retry automatically", so nothing that may have reached the service is ever sent twice:
 * - 429 (rate limited) and 503 (temporarily unavailable, which the spec's Errors table pairs with
 *   "retry later") decline a request before it is processed, whether the service or a proxy with no
 *   healthy upstream answers; a later send is then the first one the service sees, so the job queue
 *   may try again.
 * - 502 and 504 come from a gateway that may have forwarded the request and lost the answer after
 *   the service acted; like a timeout or a dropped connection, the outcome is unknown: not resent,
 *   recorded as a lost answer with a note to the agent.
 */
export type IncidentFailureKind = 'not_acted' | 'unknown' | 'rejected';

export function incidentFailureKind(error: unknown): IncidentFailureKind {
  if (error instanceof RateLimitError) return 'not_acted';
  if (error instanceof TemporarilyUnavailableError && error.status === 503) return 'not_acted';
  if (
    error instanceof APIConnectionError ||
    error instanceof APIUserAbortError ||
    error instanceof InternalServerError
  )
    return 'unknown';
  if (error instanceof APIError && error.status >= 500) return 'unknown';
  return 'rejected';
}

/**
 * A failure of either service worth retrying through the job queue (the service may answer
 * differently later): any incident-service failure but a definite refusal, and Zendesk's aborts,
 * lost connections, rate limits, 5xx and a 401 after the client's one refresh.
 */
export function isTransientFailure(error: unknown): boolean {
  if (error instanceof IncidentApiError) return incidentFailureKind(error) !== 'rejected';
  return isTransientZendeskFailure(error);
}

/** A service answer that a retry will not change (404, 403, 422, an invalid request). */
export function isPermanentFailure(error: unknown): boolean {
  if (isTransientFailure(error)) return false;
  return isZendeskFailure(error) || error instanceof IncidentApiError;
}

/** The service's own words when it gave any, else the error's. Shown to agents, never parsed. */
export function describeIncidentFailure(error: unknown): string {
  if (error instanceof APIError) {
    return `${error.status}${error.serviceMessage ? ` ${error.serviceMessage}` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}

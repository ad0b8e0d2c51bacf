// What a failed ticket write says about the account's writer: a cause an operator or an admin can
// act on, or null when the failure is no news about the account (one ticket refused for good,
// which becomes a dead letter; the writer being stopped; the connector's own database).
import type { TTicketWriteCause } from '@incident-desk/admin-contract';
import {
  ZendeskAbortError,
  ZendeskApiError,
  ZendeskConnectionError,
  ZendeskError,
  ZendeskForbiddenError,
  ZendeskRateLimitedError,
  ZendeskRecordInvalidError,
  ZendeskRecordNotFoundError,
  ZendeskTimeoutError,
  ZendeskUnauthorizedError,
} from '@incident-desk/zendesk-api';
import { AccountUnavailableError } from '../../accounts';

export interface WriteFailure {
  cause: TTicketWriteCause;
  status: number | null;
  detail: string | null;
}

const failure = (
  cause: TTicketWriteCause,
  status: number | null = null,
  detail: string | null = null,
): WriteFailure => ({ cause, status, detail });

export function writeFailureOf(error: unknown): WriteFailure | null {
  if (error instanceof AccountUnavailableError) {
    if (error.reason === 'reauthorization_required') return failure('reauthorization_required');
    if (error.reason === 'not_configured') return failure('not_configured');
    return null;
  }
  // a refusal of one ticket (closed, deleted, a value it does not take): that ticket's dead letter
  if (error instanceof ZendeskRecordInvalidError || error instanceof ZendeskRecordNotFoundError)
    return null;
  if (error instanceof ZendeskRateLimitedError) {
    const wait = error.retryAfterSeconds;
    return failure(
      'zendesk_rate_limited',
      429,
      wait === undefined ? null : `Retry-After ${wait} s`,
    );
  }
  if (error instanceof ZendeskUnauthorizedError) return failure('reauthorization_required', 401);
  if (error instanceof ZendeskForbiddenError)
    return failure(
      'zendesk_forbidden',
      403,
      error.missingScope ? `missing scope ${error.missingScope}` : null,
    );
  if (error instanceof ZendeskApiError)
    return failure(error.status >= 500 ? 'zendesk_5xx' : 'zendesk_error', error.status);
  if (error instanceof ZendeskTimeoutError) return failure('zendesk_timeout');
  if (error instanceof ZendeskConnectionError) return failure('zendesk_connection');
  if (error instanceof ZendeskAbortError) return null;
  if (error instanceof ZendeskError) return failure('zendesk_error');
  return null;
}

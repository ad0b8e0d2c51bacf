// How failures of the services behind the sidebar API become the sidebar's error answers
// (apps/sidebar/SIDEBAR_API.md, Errors); http/app-error.ts writes them.
import { parseRetryAfterMs } from '@incident-desk/client-core';
import {
  APIConnectionError,
  APIError,
  ConflictError,
  InsufficientCreditsError,
  InvalidParameterError,
  NotAwaitingApprovalError,
  NotFoundError,
  PermissionDeniedError,
} from '@incident-desk/incident-api';
import {
  AccountUnavailableError,
  isZendeskNotFound,
  isZendeskUnreachable,
  zendeskRateLimitOf,
} from '../accounts';
import { AppError } from '../http';
import { TicketWriteDeferred } from '../sync';

/** Whole seconds for the agent, at most ten minutes. */
export function retryAfterOf(headers: Headers | undefined): number | undefined {
  const ms = parseRetryAfterMs(headers?.get('retry-after'));
  return ms === undefined ? undefined : Math.min(600, Math.ceil(ms / 1000));
}

const retryLater = (message: string, retryAfterSeconds?: number): AppError =>
  new AppError('retry_later', {
    message,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });

/** An incident-service failure on an action (approve-takedown, tkd, monitor, safe). */
export function incidentActionError(error: unknown): AppError {
  if (error instanceof InsufficientCreditsError)
    return new AppError('no_credits', { message: 'no takedown credits left' });
  if (error instanceof NotAwaitingApprovalError)
    return new AppError('not_awaiting_approval', {
      message: 'the incident is not awaiting approval',
    });
  if (error instanceof NotFoundError)
    return new AppError('incident_not_found', { message: 'the incident was not found' });
  if (error instanceof ConflictError)
    return new AppError('conflict', { message: 'the incident service refused the change' });
  if (error instanceof PermissionDeniedError)
    return new AppError('forbidden', { message: 'the incident service refused the action' });
  if (error instanceof InvalidParameterError)
    return new AppError('invalid_request', { message: error.serviceMessage ?? 'invalid' });
  if (error instanceof APIError) {
    if (error.status === 429 || error.status >= 500)
      return retryLater(`incident service answered ${error.status}`, retryAfterOf(error.headers));
    if (error.status === 401)
      return new AppError('not_configured', { message: 'the incident API key is refused' });
  }
  if (error instanceof APIConnectionError) return retryLater('incident service unreachable');
  throw error;
}

/**
 * An action whose ticket update Zendesk cannot take now (the account's update budget, a 429's
 * pause) is answered at once with retry_later and the wait, never by waiting: the sidebar and the
 * admin page each run it under this.
 */
export async function orRetryLater<T>(work: () => Promise<T>): Promise<T | { error: AppError }> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TicketWriteDeferred) return { error: deferredWriteError(error) };
    throw error;
  }
}

function deferredWriteError(error: TicketWriteDeferred): AppError {
  return zendeskLimited(
    'Zendesk is limiting ticket updates for this account: try again shortly',
    Math.min(600, error.retryAfterSeconds),
  );
}

/**
 * Zendesk, not the incident service, holds the request back: its own codes, so the agent is told
 * which system failed (a retry_later is the incident service's).
 */
const zendeskLimited = (message: string, retryAfterSeconds?: number): AppError =>
  new AppError('zendesk_limited', {
    message,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });

const zendeskUnavailable = (message: string): AppError =>
  new AppError('zendesk_unavailable', { message });

/** A failure of the account or of Zendesk (reading the ticket or the agent, writing the ticket): never about the caller's request. */
export function accountError(error: unknown): AppError {
  if (error instanceof AccountUnavailableError) {
    if (error.reason === 'not_configured')
      return new AppError('not_configured', { message: 'the account has not finished setup' });
    if (error.reason === 'unknown_account')
      return new AppError('invalid_session', {
        message: 'no valid sidebar session; open the ticket in Zendesk again',
      });
    // not a passing outage: nothing works until an administrator reconnects (the sidebar says so)
    return new AppError('reauthorization_required', {
      message: 'an administrator must reconnect incident-desk with Zendesk',
    });
  }
  if (isZendeskNotFound(error))
    return new AppError('ticket_not_found', { message: 'ticket not found' });
  const rateLimit = zendeskRateLimitOf(error);
  if (rateLimit) return zendeskLimited('Zendesk rate limit', rateLimit.retryAfterSeconds);
  if (isZendeskUnreachable(error)) return zendeskUnavailable('Zendesk unreachable');
  if (error instanceof Error && 'status' in error && typeof error.status === 'number')
    return zendeskUnavailable(`Zendesk answered ${error.status}`);
  throw error;
}

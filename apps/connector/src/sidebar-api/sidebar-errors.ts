// How failures of the services behind the sidebar API become the sidebar's error answers
// (apps/sidebar/SIDEBAR_API.md, Errors).
import type { Response } from 'express';
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
  ZendeskConnectionError,
  ZendeskRateLimitedError,
  ZendeskRecordNotFoundError,
} from '@incident-desk/zendesk-api';
import { AccountUnavailableError } from '../accounts/account-context';

export interface SidebarError {
  status: number;
  code: string;
  message: string;
  retryAfterSeconds?: number;
}

export function sendSidebarError(res: Response, error: SidebarError): void {
  if (error.retryAfterSeconds !== undefined)
    res.set('Retry-After', String(error.retryAfterSeconds));
  res.status(error.status).json({
    error: {
      code: error.code,
      message: error.message,
      ...(error.retryAfterSeconds === undefined
        ? {}
        : { retryAfterSeconds: error.retryAfterSeconds }),
    },
  });
}

function retryAfterOf(headers: Headers | undefined): number | undefined {
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = /^\d+$/.test(value.trim())
    ? Number(value)
    : Math.ceil((Date.parse(value) - Date.now()) / 1000);
  return Number.isFinite(seconds) ? Math.min(600, Math.max(0, seconds)) : undefined;
}

const retryLater = (message: string, retryAfterSeconds?: number): SidebarError => ({
  status: 503,
  code: 'retry_later',
  message,
  ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
});

/** An incident-service failure on an action (approve-takedown, tkd, monitor, safe). */
export function incidentActionError(error: unknown): SidebarError {
  if (error instanceof InsufficientCreditsError)
    return { status: 403, code: 'no_credits', message: 'no takedown credits left' };
  if (error instanceof NotAwaitingApprovalError)
    return {
      status: 409,
      code: 'not_awaiting_approval',
      message: 'the incident is not awaiting approval',
    };
  if (error instanceof NotFoundError)
    return { status: 404, code: 'incident_not_found', message: 'the incident was not found' };
  if (error instanceof ConflictError)
    return { status: 409, code: 'conflict', message: 'the incident service refused the change' };
  if (error instanceof PermissionDeniedError)
    return { status: 403, code: 'forbidden', message: 'the incident service refused the action' };
  if (error instanceof InvalidParameterError)
    return { status: 400, code: 'invalid_request', message: error.serviceMessage ?? 'invalid' };
  if (error instanceof APIError) {
    if (error.status === 429 || error.status >= 500)
      return retryLater(`incident service answered ${error.status}`, retryAfterOf(error.headers));
    if (error.status === 401)
      return { status: 412, code: 'not_configured', message: 'the incident API key is refused' };
  }
  if (error instanceof APIConnectionError) return retryLater('incident service unreachable');
  throw error;
}

/** A failure reading the account, the ticket or the agent: never about the caller's request. */
export function accountError(error: unknown): SidebarError {
  if (error instanceof AccountUnavailableError) {
    if (error.reason === 'not_configured')
      return { status: 412, code: 'not_configured', message: 'the account has not finished setup' };
    if (error.reason === 'unknown_account')
      return { status: 401, code: 'invalid_token', message: 'no installation for this account' };
    return retryLater('the account needs to be re-authorised by an administrator');
  }
  if (error instanceof ZendeskRecordNotFoundError)
    return { status: 404, code: 'ticket_not_found', message: 'ticket not found' };
  if (error instanceof ZendeskRateLimitedError)
    return retryLater('Zendesk rate limit', error.retryAfterSeconds);
  if (error instanceof ZendeskConnectionError) return retryLater('Zendesk unreachable');
  if (error instanceof Error && 'status' in error && typeof error.status === 'number')
    return retryLater(`Zendesk answered ${error.status}`);
  throw error;
}

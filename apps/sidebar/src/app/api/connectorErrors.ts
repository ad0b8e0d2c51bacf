import type { ConnectorErrorBody } from '@incident-desk/sidebar-contract';
import type { ZafFailedResponse } from '../zaf/zafClient';

export type ConnectorError =
  | { kind: 'network' }
  | { kind: 'auth' }
  | { kind: 'no_credits' }
  /** The agent's Zendesk role may view the ticket but not act on it (a light agent). */
  | { kind: 'read_only' }
  | { kind: 'forbidden' }
  | { kind: 'not_found' }
  /**
   * The connector found no ticket for this agent: the sidebar only asks for the ticket Zendesk
   * opened, so it exists; the agent's Zendesk access (ticket_restriction) does not include it.
   */
  | { kind: 'no_ticket_access' }
  | { kind: 'not_awaiting_approval' }
  | { kind: 'conflict' }
  | { kind: 'not_configured' }
  | { kind: 'reauthorization_required' }
  /** Zendesk refused or did not answer what the connector asked of it (the incident service is not involved). */
  | { kind: 'zendesk_unavailable' }
  /**
   * rate_limited: 429; unavailable: the connector or the service is down or overloaded (502-504);
   * zendesk_limited: Zendesk's limits hold the account's ticket updates back.
   */
  | {
      kind: 'retry_later';
      retryAfterSeconds?: number;
      cause?: 'rate_limited' | 'unavailable' | 'zendesk_limited';
    }
  | { kind: 'invalid_response' }
  | { kind: 'http'; status: number };

export type ConnectorResult<T> = { ok: true; value: T } | { ok: false; error: ConnectorError };

function bodyOf(response: ZafFailedResponse): ConnectorErrorBody {
  if (response.responseJSON && typeof response.responseJSON === 'object') {
    return response.responseJSON as ConnectorErrorBody;
  }
  try {
    const parsed: unknown = JSON.parse(response.responseText ?? '');
    return parsed && typeof parsed === 'object' ? (parsed as ConnectorErrorBody) : {};
  } catch {
    return {};
  }
}

function retryAfter(response: ZafFailedResponse, body: ConnectorErrorBody): number | undefined {
  const header = response.headers?.['retry-after'] ?? response.headers?.['Retry-After'];
  const seconds =
    body.error?.retryAfterSeconds ?? (header === undefined ? undefined : Number(header));
  // Ignore nonsense so a broken header cannot freeze the sidebar.
  return seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 && seconds <= 600
    ? seconds
    : undefined;
}

/** The one status-to-error table of the sidebar. */
export function toConnectorError(response: unknown): ConnectorError {
  if (!response || typeof response !== 'object') return { kind: 'network' };
  const failed = response as ZafFailedResponse;
  const status = typeof failed.status === 'number' ? failed.status : 0;
  const body = bodyOf(failed);
  const code = body.error?.code;
  switch (status) {
    case 0:
      return { kind: 'network' };
    case 401:
      return { kind: 'auth' };
    case 403:
      if (code === 'read_only') return { kind: 'read_only' };
      return code === 'no_credits' ? { kind: 'no_credits' } : { kind: 'forbidden' };
    case 404:
      return code === 'ticket_not_found' ? { kind: 'no_ticket_access' } : { kind: 'not_found' };
    case 409:
      return code === 'not_awaiting_approval'
        ? { kind: 'not_awaiting_approval' }
        : { kind: 'conflict' };
    case 412:
      return code === 'reauthorization_required'
        ? { kind: 'reauthorization_required' }
        : { kind: 'not_configured' };
    case 429:
      return {
        kind: 'retry_later',
        cause: 'rate_limited',
        retryAfterSeconds: retryAfter(failed, body),
      };
    case 502:
    case 503:
    case 504:
      if (code === 'zendesk_unavailable') return { kind: 'zendesk_unavailable' };
      if (code === 'zendesk_limited')
        return {
          kind: 'retry_later',
          cause: 'zendesk_limited',
          retryAfterSeconds: retryAfter(failed, body),
        };
      return {
        kind: 'retry_later',
        cause: 'unavailable',
        retryAfterSeconds: retryAfter(failed, body),
      };
    default:
      return { kind: 'http', status };
  }
}

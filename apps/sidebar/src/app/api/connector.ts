import type { ZafClient, ZafCompleteResponse, ZafRequestOptions } from '../zaf/zafClient';
import { toConnectorError, type ConnectorError, type ConnectorResult } from './connectorErrors';
import { parseTicketView } from './parseTicketView';
import { markStage } from '../lib/perfMarks';
import type {
  TActionAck,
  TIncidentAction,
  TReportMode,
  TSidebarTicketView,
} from './sidebarContract';

export type { ConnectorError, ConnectorResult };

export interface ConnectorIdentity {
  /** Base URL of the connector, from the installation's connector_url setting. */
  connectorUrl: string;
  subdomain: string;
  agentId: number;
  agentEmail: string;
}

export interface ConnectorApiOptions {
  /** Lifetime of each minted JWT in seconds; short because one is minted per call. Default 300. */
  jwtExpirySeconds?: number;
  /** Request timeout in milliseconds passed to ZAF. Default 15000. */
  timeoutMs?: number;
  /**
   * How much longer than timeoutMs the app waits for the host's answer before it gives up itself
   * (a host that never answers must not leave the view loading forever). Default 5000.
   */
  answerGraceMs?: number;
}

export interface ConnectorApi {
  getTicketView(ticketId: number): Promise<ConnectorResult<TSidebarTicketView>>;
  /** author must be the current agent; the connector checks it against the token's email claim. */
  approveTakedown(ticketId: number, author: string): Promise<ConnectorResult<TActionAck>>;
  incidentAction(ticketId: number, action: TIncidentAction): Promise<ConnectorResult<TActionAck>>;
  reportThreat(ticketId: number, mode: TReportMode): Promise<ConnectorResult<TActionAck>>;
  retryLink(ticketId: number): Promise<ConnectorResult<TActionAck>>;
  retryForward(ticketId: number, forwardId: string): Promise<ConnectorResult<TActionAck>>;
}

/** Percent-encodes every interpolated path segment. */
function path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce(
    (out, part, i) => out + part + (i < values.length ? encodeURIComponent(String(values[i])) : ''),
    '',
  );
}

/**
 * The only way the sidebar talks to the connector: through ZAF's proxy (secure: true) so
 * that the proxy mints an HS256 JWT from the secure shared_secret setting; no secret reaches
 * the browser.
 */
export function createConnectorApi(
  client: ZafClient,
  identity: ConnectorIdentity,
  options: ConnectorApiOptions = {},
): ConnectorApi {
  const base = identity.connectorUrl.replace(/\/+$/, '');
  const expiry = options.jwtExpirySeconds ?? 300;
  const timeout = options.timeoutMs ?? 15000;
  const giveUpAfter = timeout + (options.answerGraceMs ?? 5000);

  /** client.request, or a status-0 timeout failure when the host has not answered in time. */
  function requestAnswered(request: ZafRequestOptions): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject({ status: 0, statusText: 'timeout', responseText: '' }),
        giveUpAfter,
      );
      client.request(request).then(
        (response) => {
          clearTimeout(timer);
          resolve(response);
        },
        (failure: unknown) => {
          clearTimeout(timer);
          reject(failure);
        },
      );
    });
  }

  async function call(
    method: 'GET' | 'POST',
    ticketId: number,
    route: string,
    body?: Record<string, unknown>,
  ): Promise<ConnectorResult<unknown>> {
    const request: ZafRequestOptions = {
      url: `${base}${route}`,
      type: method,
      secure: true,
      cors: false,
      httpCompleteResponse: true,
      timeout,
      headers: { Authorization: 'Bearer {{jwt.token}}', Accept: 'application/json' },
      jwt: {
        algorithm: 'HS256',
        secret_key: '{{setting.shared_secret}}',
        expiry,
        claims: {
          subdomain: identity.subdomain,
          agent_id: identity.agentId,
          agent_email: identity.agentEmail,
          ticket_id: ticketId,
        },
      },
    };
    if (body !== undefined) {
      request.contentType = 'application/json';
      request.data = JSON.stringify(body);
    }
    let response: ZafCompleteResponse;
    try {
      response = (await requestAnswered(request)) as ZafCompleteResponse;
    } catch (failure) {
      return { ok: false, error: toConnectorError(failure) };
    }
    if (
      response &&
      typeof response === 'object' &&
      typeof response.status === 'number' &&
      response.status >= 400
    ) {
      return { ok: false, error: toConnectorError(response) };
    }
    let json: unknown = response?.responseJSON;
    if (json === undefined && response?.responseText) {
      try {
        json = JSON.parse(response.responseText);
      } catch {
        return { ok: false, error: { kind: 'invalid_response' } };
      }
    }
    return { ok: true, value: json ?? {} };
  }

  function ack(result: ConnectorResult<unknown>): ConnectorResult<TActionAck> {
    if (!result.ok) return result;
    const message = (result.value as { message?: unknown }).message;
    return { ok: true, value: typeof message === 'string' ? { message } : {} };
  }

  return {
    async getTicketView(ticketId) {
      markStage('view-requested');
      const result = await call('GET', ticketId, path`/sidebar/tickets/${ticketId}`);
      markStage('view-answered');
      if (!result.ok) return result;
      const view = parseTicketView(result.value);
      return view ? { ok: true, value: view } : { ok: false, error: { kind: 'invalid_response' } };
    },
    async approveTakedown(ticketId, author) {
      const result = await call(
        'POST',
        ticketId,
        path`/sidebar/tickets/${ticketId}/approve-takedown`,
        { author },
      );
      if (result.ok) return ack(result);
      // On this endpoint the incident service gives 403 only for credits and 409 only for state.
      if (result.error.kind === 'forbidden') return { ok: false, error: { kind: 'no_credits' } };
      if (result.error.kind === 'conflict')
        return { ok: false, error: { kind: 'not_awaiting_approval' } };
      return result;
    },
    async incidentAction(ticketId, action) {
      return ack(
        await call('POST', ticketId, path`/sidebar/tickets/${ticketId}/actions/${action}`, {}),
      );
    },
    async reportThreat(ticketId, mode) {
      return ack(await call('POST', ticketId, path`/sidebar/tickets/${ticketId}/report`, { mode }));
    },
    async retryLink(ticketId) {
      return ack(await call('POST', ticketId, path`/sidebar/tickets/${ticketId}/retry-link`, {}));
    },
    async retryForward(ticketId, forwardId) {
      return ack(
        await call(
          'POST',
          ticketId,
          path`/sidebar/tickets/${ticketId}/forwards/${forwardId}/retry`,
          {},
        ),
      );
    },
  };
}

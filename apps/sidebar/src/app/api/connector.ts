import type { ConnectorTransport, TransportRequest, TransportResponse } from './transport';
import { toConnectorError, type ConnectorError, type ConnectorResult } from './connectorErrors';
import { markStage } from '../lib/perfMarks';
import type {
  TActionAck,
  TIncidentAction,
  TReportMode,
  TSidebarTicketView,
} from '@incident-desk/sidebar-contract';

/** The answers' schemas arrive with the UI chunk (preloaded beside the entry). */
const answers = () => import('./answers');

export type { ConnectorError };

export interface ConnectorApiOptions {
  /** Request timeout in milliseconds. Default 15000. */
  timeoutMs?: number;
  /**
   * How much longer than timeoutMs the app waits for an answer before it gives up itself
   * (a transport that never answers must not leave the view loading forever). Default 5000.
   */
  answerGraceMs?: number;
}

export interface ConnectorApi {
  getTicketView(ticketId: number): Promise<ConnectorResult<TSidebarTicketView>>;
  /** The approval's author is the session's agent, never named by the browser. */
  approveTakedown(ticketId: number): Promise<ConnectorResult<TActionAck>>;
  incidentAction(ticketId: number, action: TIncidentAction): Promise<ConnectorResult<TActionAck>>;
  reportThreat(ticketId: number, mode: TReportMode): Promise<ConnectorResult<TActionAck>>;
  retryLink(ticketId: number): Promise<ConnectorResult<TActionAck>>;
  retryForward(ticketId: number, forwardId: string): Promise<ConnectorResult<TActionAck>>;
  /** This ticket's incident updates waiting for the writer become due now. */
  retryTicketUpdates(ticketId: number): Promise<ConnectorResult<TActionAck>>;
}

/** Percent-encodes every interpolated path segment. */
function path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce(
    (out, part, i) => out + part + (i < values.length ? encodeURIComponent(String(values[i])) : ''),
    '',
  );
}

/** The transport's answer, or a status-0 timeout failure when none came within `giveUpAfter` ms. */
function answeredWithin(
  transport: ConnectorTransport,
  request: TransportRequest,
  giveUpAfter: number,
): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject({ status: 0, statusText: 'timeout', responseText: '' }),
      giveUpAfter,
    );
    transport(request).then(
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

/** A transport's answer read as a result: its JSON body, or the connector error it stands for. */
function readAnswer(response: TransportResponse): ConnectorResult<unknown> {
  if (response.status >= 400 || response.status < 200)
    return { ok: false, error: toConnectorError(response) };
  if (!response.responseText) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(response.responseText) as unknown };
  } catch {
    return { ok: false, error: { kind: 'invalid_response' } };
  }
}

async function ack(result: ConnectorResult<unknown>): Promise<ConnectorResult<TActionAck>> {
  if (!result.ok) return result;
  return { ok: true, value: (await answers()).parseActionAck(result.value) };
}

/**
 * The only way the sidebar talks to the connector: the connector that served this page, on the
 * same origin, with the session it put into the page. Who the agent is comes from that session;
 * nothing here names the agent.
 */
export function createConnectorApi(
  transport: ConnectorTransport,
  options: ConnectorApiOptions = {},
): ConnectorApi {
  const timeout = options.timeoutMs ?? 15000;
  const giveUpAfter = timeout + (options.answerGraceMs ?? 5000);

  async function call(
    method: 'GET' | 'POST',
    route: string,
    body?: Record<string, unknown>,
  ): Promise<ConnectorResult<unknown>> {
    const request: TransportRequest = {
      method,
      path: route,
      timeoutMs: timeout,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    };
    try {
      return readAnswer(await answeredWithin(transport, request, giveUpAfter));
    } catch (failure) {
      return { ok: false, error: toConnectorError(failure) };
    }
  }

  return {
    async getTicketView(ticketId) {
      markStage('view-requested');
      const result = await call('GET', path`/sidebar/tickets/${ticketId}`);
      markStage('view-answered');
      if (!result.ok) return result;
      const view = (await answers()).parseTicketView(result.value);
      return view ? { ok: true, value: view } : { ok: false, error: { kind: 'invalid_response' } };
    },
    async approveTakedown(ticketId) {
      // each refusal reads as the code the connector gave it (no_credits, not_awaiting_approval,
      // not_linked, author_mismatch...), never relabelled by its status
      return ack(await call('POST', path`/sidebar/tickets/${ticketId}/approve-takedown`, {}));
    },
    async incidentAction(ticketId, action) {
      return ack(await call('POST', path`/sidebar/tickets/${ticketId}/actions/${action}`, {}));
    },
    async reportThreat(ticketId, mode) {
      return ack(await call('POST', path`/sidebar/tickets/${ticketId}/report`, { mode }));
    },
    async retryLink(ticketId) {
      return ack(await call('POST', path`/sidebar/tickets/${ticketId}/retry-link`, {}));
    },
    async retryForward(ticketId, forwardId) {
      return ack(
        await call('POST', path`/sidebar/tickets/${ticketId}/forwards/${forwardId}/retry`, {}),
      );
    },
    async retryTicketUpdates(ticketId) {
      return ack(await call('POST', path`/sidebar/tickets/${ticketId}/ticket-updates/retry`, {}));
    },
  };
}

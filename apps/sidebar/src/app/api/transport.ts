import type { ZafClient } from '../zaf/zafClient';
import { createPageSession, readSessionBlock, type PageSession } from './pageSession';

export interface TransportRequest {
  method: 'GET' | 'POST';
  /** Path on the connector, e.g. /sidebar/tickets/42: the page and the API share one origin. */
  path: string;
  body?: string;
  timeoutMs: number;
}

/** A connector answer, any status. A request that got no answer rejects with `{ status: 0 }`. */
export interface TransportResponse {
  status: number;
  responseText: string;
  headers: Record<string, string>;
}

export type ConnectorTransport = (request: TransportRequest) => Promise<TransportResponse>;

/** Same-origin fetch with the page's session token. */
export function fetchTransport(
  session: PageSession,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
): ConnectorTransport {
  return async (request) => {
    let response: Response;
    try {
      response = await fetchImpl(request.path, {
        method: request.method,
        headers: {
          Authorization: `Bearer ${await session.token()}`,
          Accept: 'application/json',
          ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(request.body === undefined ? {} : { body: request.body }),
        signal: AbortSignal.timeout(request.timeoutMs),
        credentials: 'omit',
      });
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      throw { status: 0, statusText: timedOut ? 'timeout' : 'error', responseText: '' };
    }
    return {
      status: response.status,
      responseText: await response.text(),
      headers: Object.fromEntries(response.headers.entries()),
    };
  };
}

type TransportFactory = (client: ZafClient) => ConnectorTransport | null;
let factoryOverride: TransportFactory | null = null;
let pageSession: PageSession | null | undefined;

/** Tests: where the connector calls go instead of this page's connector. */
export function setConnectorTransportFactory(factory: TransportFactory | null): void {
  factoryOverride = factory;
}

/** The way to the connector that served this page, or null when the page holds no session. */
export function connectorTransport(client: ZafClient): ConnectorTransport | null {
  if (factoryOverride) return factoryOverride(client);
  if (pageSession === undefined) {
    const block = readSessionBlock();
    pageSession = block ? createPageSession(block) : null;
  }
  return pageSession ? fetchTransport(pageSession) : null;
}

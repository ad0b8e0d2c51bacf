import type { ZafClient } from '../zaf/zafClient';
import { createConnectorApi, type ConnectorApi } from './connector';
import { connectorTransport } from './transport';

type ViewResult = ReturnType<ConnectorApi['getTicketView']>;

interface Prefetch {
  client: ZafClient;
  ticketId: number;
  view: ViewResult;
}

let prefetched: Prefetch | null = null;

/**
 * Starts the first view request as soon as Zendesk has said which ticket is open, before React
 * has mounted: the connector round trip then overlaps loading and rendering the UI instead of
 * following it.
 */
export function prefetchTicketView(client: ZafClient, ticketId: number): void {
  const transport = connectorTransport(client);
  if (!transport) return;
  const view = createConnectorApi(transport).getTicketView(ticketId);
  prefetched = { client, ticketId, view };
}

/**
 * The API with its first getTicketView answered by the prefetched request, when one was made for
 * the same client and ticket. It is used once: every later call (refresh, retry) asks the
 * connector again.
 */
export function withPrefetchedView(api: ConnectorApi, client: ZafClient): ConnectorApi {
  return {
    ...api,
    getTicketView(ticketId) {
      const mine = prefetched;
      if (mine && mine.client === client && mine.ticketId === ticketId) {
        prefetched = null;
        return mine.view;
      }
      return api.getTicketView(ticketId);
    },
  };
}

/** Tests: forget a prefetch that no view consumed. */
export function clearPrefetchedView(): void {
  prefetched = null;
}

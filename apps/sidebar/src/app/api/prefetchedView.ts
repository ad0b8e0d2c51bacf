import type { ZafClient } from '../zaf/zafClient';
import { createConnectorApi, type ConnectorApi, type ConnectorIdentity } from './connector';

type ViewResult = ReturnType<ConnectorApi['getTicketView']>;

interface Prefetch {
  client: ZafClient;
  key: string;
  ticketId: number;
  view: ViewResult;
}

let prefetched: Prefetch | null = null;

const keyOf = (identity: ConnectorIdentity) =>
  JSON.stringify([
    identity.connectorUrl,
    identity.subdomain,
    identity.agentId,
    identity.agentEmail,
  ]);

/**
 * Starts the first view request as soon as Zendesk has said who is looking at which ticket,
 * before React has mounted: the connector round trip then overlaps loading and rendering the UI
 * instead of following it.
 */
export function prefetchTicketView(
  client: ZafClient,
  identity: ConnectorIdentity,
  ticketId: number,
): void {
  const view = createConnectorApi(client, identity).getTicketView(ticketId);
  prefetched = { client, key: keyOf(identity), ticketId, view };
}

/**
 * The API with its first getTicketView answered by the prefetched request, when one was made for
 * the same client, identity and ticket. It is used once: every later call (refresh, retry) asks
 * the connector again.
 */
export function withPrefetchedView(
  api: ConnectorApi,
  client: ZafClient,
  identity: ConnectorIdentity,
): ConnectorApi {
  return {
    ...api,
    getTicketView(ticketId) {
      const mine = prefetched;
      if (
        mine &&
        mine.client === client &&
        mine.ticketId === ticketId &&
        mine.key === keyOf(identity)
      ) {
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

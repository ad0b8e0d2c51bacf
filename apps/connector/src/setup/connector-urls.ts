// Receiver addresses the connector serves (src/http/ticketing-webhook.ts, incident-webhook.ts).

const INCIDENT_RECEIVER_PATH = '/webhooks/incident';

function base(connectorUrl: string): string {
  return connectorUrl.replace(/\/+$/, '');
}

export function ticketingWebhookUrl(connectorUrl: string, accountId: string): string {
  return `${base(connectorUrl)}/ticketing/webhook?account=${encodeURIComponent(accountId)}`;
}

export function incidentWebhookUrl(connectorUrl: string, subscriptionId: string): string {
  return `${base(connectorUrl)}${INCIDENT_RECEIVER_PATH}?subscription=${encodeURIComponent(subscriptionId)}`;
}

/** The opaque id of a URL this connector's incident receiver serves, else null. */
export function subscriptionIdOf(connectorUrl: string, url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    const expected = new URL(`${base(connectorUrl)}${INCIDENT_RECEIVER_PATH}`);
    if (parsed.origin !== expected.origin || parsed.pathname !== expected.pathname) return null;
    return parsed.searchParams.get('subscription') || null;
  } catch {
    return null;
  }
}

import type { ZafContext, ZafMetadata } from './zafClient';

export interface Agent {
  id: number;
  email: string;
  name?: string;
}

export type Session =
  | { status: 'not_configured' }
  /** A ticket being created has no id yet: nothing can be linked until it is saved. */
  | { status: 'new_ticket' }
  | { status: 'ready'; ticketId: number; agent: Agent; subdomain: string; connectorUrl: string };

/** The installation's connector_url setting when it is an http(s) URL, else null. */
export function connectorUrlOf(metadata: ZafMetadata): string | null {
  const value = metadata.settings?.connector_url;
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Who is looking at which ticket, and where the connector is, from the installation's metadata,
 * the app context and the answer of `get(SESSION_PATHS)`. Throws when Zendesk's answer lacks
 * what every connector call needs (agent id and email, ticket id, subdomain).
 */
export function sessionOf(
  metadata: ZafMetadata,
  context: ZafContext,
  facts: Record<string, unknown>,
): Session {
  const connectorUrl = connectorUrlOf(metadata);
  if (!connectorUrl) return { status: 'not_configured' };
  const user = facts.currentUser as { id?: unknown; email?: unknown; name?: unknown } | undefined;
  const account = facts.currentAccount as { subdomain?: unknown } | undefined;
  const rawTicketId = facts['ticket.id'] ?? context.ticketId;
  if (rawTicketId === null || rawTicketId === undefined || rawTicketId === '')
    return { status: 'new_ticket' };
  const ticketId = Number(rawTicketId);
  const subdomain =
    context.account?.subdomain ?? (typeof account?.subdomain === 'string' ? account.subdomain : '');
  if (
    !Number.isInteger(ticketId) ||
    ticketId <= 0 ||
    typeof user?.id !== 'number' ||
    typeof user.email !== 'string' ||
    !subdomain
  ) {
    throw new Error('incomplete ZAF answer');
  }
  return {
    status: 'ready',
    ticketId,
    agent: {
      id: user.id,
      email: user.email,
      name: typeof user.name === 'string' ? user.name : undefined,
    },
    subdomain,
    connectorUrl,
  };
}

import type { ZafContext, ZafMetadata } from './zafClient';

interface Agent {
  id: number;
  email: string;
  name?: string;
}

export type Session =
  | { status: 'not_configured' }
  /** A ticket being created has no id yet: nothing can be linked until it is saved. */
  | { status: 'new_ticket' }
  | { status: 'ready'; ticketId: number; agent: Agent; subdomain: string };

/**
 * Who is looking at which ticket, from the app context and the answer of `get(SESSION_PATHS)`,
 * for display and for choosing the ticket. The connector never takes the agent from here: it knows
 * the agent from the session Zendesk's signed request opened. Throws when Zendesk's answer lacks
 * the agent, the ticket id or the subdomain.
 */
export function sessionOf(
  _metadata: ZafMetadata,
  context: ZafContext,
  facts: Record<string, unknown>,
): Session {
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
  };
}

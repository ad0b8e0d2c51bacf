import { useCallback, useEffect, useState } from 'react';
import { useClientValue } from './useClient';
import { forgetSessionFacts, getSessionFacts } from '../zaf/sessionFacts';

export interface Agent {
  id: number;
  email: string;
  name?: string;
}

export type SessionState =
  | { status: 'loading' }
  | { status: 'error' }
  | { status: 'not_configured' }
  /** A ticket being created has no id yet: nothing can be linked until it is saved. */
  | { status: 'new_ticket' }
  | { status: 'ready'; ticketId: number; agent: Agent; subdomain: string; connectorUrl: string };

function validConnectorUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Who is looking at which ticket, and where the connector is: read once per ticket from ZAF. */
export function useSession(): SessionState & { retry: () => void } {
  const { client, metadata, context } = useClientValue();
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const connectorUrl = validConnectorUrl(metadata.settings?.connector_url);
    if (!connectorUrl) {
      setState({ status: 'not_configured' });
      return;
    }
    let active = true;
    setState({ status: 'loading' });
    // The first attempt reuses the answer the translations already asked for.
    if (attempt > 0) forgetSessionFacts(client);
    getSessionFacts(client)
      .then((result) => {
        const user = result.currentUser as
          { id?: unknown; email?: unknown; name?: unknown } | undefined;
        const account = result.currentAccount as { subdomain?: unknown } | undefined;
        const rawTicketId = result['ticket.id'] ?? context.ticketId;
        if (rawTicketId === null || rawTicketId === undefined || rawTicketId === '') {
          if (active) setState({ status: 'new_ticket' });
          return;
        }
        const ticketId = Number(rawTicketId);
        const subdomain =
          context.account?.subdomain ??
          (typeof account?.subdomain === 'string' ? account.subdomain : '');
        if (
          !Number.isInteger(ticketId) ||
          ticketId <= 0 ||
          typeof user?.id !== 'number' ||
          typeof user.email !== 'string' ||
          !subdomain
        ) {
          throw new Error('incomplete ZAF answer');
        }
        if (active) {
          setState({
            status: 'ready',
            ticketId,
            agent: {
              id: user.id,
              email: user.email,
              name: typeof user.name === 'string' ? user.name : undefined,
            },
            subdomain,
            connectorUrl,
          });
        }
      })
      .catch(() => {
        if (active) setState({ status: 'error' });
      });
    return () => {
      active = false;
    };
  }, [client, metadata, context, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  // A new ticket gets its id when saved.
  const waitingForSave = state.status === 'new_ticket';
  useEffect(() => {
    if (!waitingForSave) return;
    client.on('ticket.saved', retry);
    return () => client.off('ticket.saved', retry);
  }, [client, waitingForSave, retry]);
  return { ...state, retry };
}

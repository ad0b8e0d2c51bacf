import { useCallback, useEffect, useState } from 'react';
import { useClientValue } from './useClient';
import { forgetSessionFacts, getSessionFacts } from '../zaf/sessionFacts';
import { sessionOf, type Session } from '../zaf/sessionOf';

export type SessionState = { status: 'loading' } | { status: 'error' } | Session;

/** Who is looking at which ticket: read once per ticket from ZAF. */
export function useSession(): SessionState & { retry: () => void } {
  const { client, metadata, context } = useClientValue();
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let active = true;
    setState({ status: 'loading' });
    // The first attempt reuses the answer the translations already asked for.
    if (attempt > 0) forgetSessionFacts(client);
    getSessionFacts(client)
      .then((facts) => {
        const session = sessionOf(metadata, context, facts);
        if (active) setState(session);
      })
      .catch(() => {
        if (active) setState({ status: 'error' });
      });
    return () => {
      active = false;
    };
  }, [client, metadata, context, attempt]);

  // A new ticket's sidebar is not told of the save (ticket.saved reaches the background location
  // only): Zendesk opens the saved ticket in its tab, whose sidebar loads with the ticket's id.
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry };
}

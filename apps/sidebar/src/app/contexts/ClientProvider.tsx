import { useCallback, useEffect, useState, type ReactNode } from 'react';
import ZAFClient from 'zendesk_app_framework_sdk';
import type { ZafClient } from '../zaf/zafClient';
import { ClientContext, type ClientValue } from './clientContext';
import { OutsideZendesk, ZendeskUnreachable } from '../components/ClientErrors';
import { LoadingSkeleton } from '../components/LoadingSkeleton';

type State =
  | { status: 'connecting' }
  | { status: 'ready'; value: ClientValue }
  | { status: 'outside_zendesk' }
  | { status: 'unreachable' };

interface Props {
  children: ReactNode;
  /** Injected in tests; defaults to the SDK's ZAFClient.init. */
  init?: () => ZafClient | false;
  /** How long to wait for app.registered before showing an error. Default 10000 ms. */
  registrationTimeoutMs?: number;
}

const defaultInit = () => ZAFClient.init();

export function ClientProvider({
  children,
  init = defaultInit,
  registrationTimeoutMs = 10000,
}: Props) {
  // The lazy initialiser runs once per mount: ZAFClient.init() must not run twice (two handshakes).
  const [client] = useState(() => init());
  const [state, setState] = useState<State>(
    client ? { status: 'connecting' } : { status: 'outside_zendesk' },
  );
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!client) return;
    let settled = false;
    const timer = setTimeout(() => {
      if (!settled) setState({ status: 'unreachable' });
    }, registrationTimeoutMs);
    // context() and metadata() resolve on app.registered, or at once if it already happened.
    Promise.all([client.context(), client.metadata()]).then(
      ([context, metadata]) => {
        settled = true;
        clearTimeout(timer);
        setState({
          status: 'ready',
          value: { client, context: context ?? {}, metadata: metadata ?? {} },
        });
      },
      () => {
        settled = true;
        clearTimeout(timer);
        setState({ status: 'unreachable' });
      },
    );
    return () => {
      settled = true;
      clearTimeout(timer);
    };
  }, [client, registrationTimeoutMs, attempt]);

  const retry = useCallback(() => {
    setState({ status: 'connecting' });
    setAttempt((n) => n + 1);
  }, []);

  if (state.status === 'outside_zendesk') return <OutsideZendesk />;
  if (state.status === 'unreachable') return <ZendeskUnreachable onRetry={retry} />;
  // the agent's locale is not known yet: no words
  if (state.status === 'connecting') return <LoadingSkeleton neutral />;
  return <ClientContext.Provider value={state.value}>{children}</ClientContext.Provider>;
}

import { useCallback, useRef, useState } from 'react';
import type { ConnectorError, ConnectorResult } from '../api/connectorErrors';
import type { TActionAck } from '@incident-desk/sidebar-contract';

/** The incident actions the status card confirms in a dialog (actions.<id>.button, .confirm…). */
export type TConfirmedActionId = 'approve' | 'takedown' | 'monitor' | 'safe';
/** Every action the runner runs: actions.<id>.success and .failed, and .errors.<kind> when it has its own. */
export type TActionId = TConfirmedActionId | 'retryLink' | 'retryForward' | 'follow';

export interface ActionSpec<Id extends TActionId = TActionId> {
  /** Stable name, used for the feedback message keys: actions.<id>.success and actions.<id>.errors.<kind>. */
  id: Id;
  run: () => Promise<ConnectorResult<TActionAck>>;
}

export type ActionFeedback =
  | { kind: 'success'; action: ActionSpec }
  | { kind: 'error'; action: ActionSpec; error: ConnectorError };

/**
 * Runs connector actions one at a time and keeps their outcome where it survives a refresh
 * (the button that started an action may disappear once the view updates).
 */
export function useActionRunner(onChanged: () => void) {
  const [pending, setPending] = useState<string | null>(null);
  const [feedback, setFeedback] = useState<ActionFeedback | null>(null);
  const busy = useRef(false);

  const run = useCallback(
    async (action: ActionSpec) => {
      if (busy.current) return;
      busy.current = true;
      setPending(action.id);
      setFeedback(null);
      const result = await action.run();
      busy.current = false;
      setPending(null);
      if (result.ok) {
        setFeedback({ kind: 'success', action });
        onChanged();
      } else {
        setFeedback({ kind: 'error', action, error: result.error });
        // 409: the incident moved on; show its current state.
        if (result.error.kind === 'not_awaiting_approval' || result.error.kind === 'conflict')
          onChanged();
      }
    },
    [onChanged],
  );

  return { pending, feedback, run, dismiss: () => setFeedback(null) };
}

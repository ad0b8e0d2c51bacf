import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConnectorError, ConnectorResult } from '../api/connectorErrors';
import type { TActionAck } from '@incident-desk/sidebar-contract';

/** The incident actions the status card confirms in a dialog (actions.<id>.button, .confirm…). */
export type TConfirmedActionId = 'approve' | 'takedown' | 'monitor' | 'safe';
/** Every action the runner runs: actions.<id>.success and .failed, and .errors.<kind> when it has its own. */
type TActionId = TConfirmedActionId | 'retryLink' | 'retryForward' | 'retryUpdates' | 'follow';

export interface ActionSpec<Id extends TActionId = TActionId> {
  /** Stable name, used for the feedback message keys: actions.<id>.success and actions.<id>.errors.<kind>. */
  id: Id;
  run: () => Promise<ConnectorResult<TActionAck>>;
}

export type ActionFeedback =
  | { kind: 'success'; action: ActionSpec; saidIn?: string; ledTo?: string }
  | { kind: 'error'; action: ActionSpec; error: ConnectorError };

/**
 * Whether a success is still news in `state`: it belongs to the state it was said in and to the
 * one the action led to (the refresh that follows an approval may already show the next status);
 * once the incident moves on from there it is gone, so "Takedown approved." never sits on the
 * card of a later state.
 */
function outlived(feedback: ActionFeedback | null, state: string | undefined): boolean {
  if (feedback?.kind !== 'success' || state === undefined) return false;
  if (feedback.ledTo === undefined) return false;
  return state !== feedback.ledTo;
}

/**
 * Runs connector actions one at a time and keeps their outcome where it survives a refresh
 * (the button that started an action may disappear once the view updates). With `state` (the
 * incident's status on a status card), a success lasts while the state is the one it was said in
 * or the one the action led to.
 */
export function useActionRunner(onChanged: () => void, state?: string) {
  const [pending, setPending] = useState<string | null>(null);
  const [said, setFeedback] = useState<ActionFeedback | null>(null);
  const busy = useRef(false);
  const stateNow = useRef(state);
  stateNow.current = state;

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
        setFeedback({ kind: 'success', action, saidIn: stateNow.current });
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

  useEffect(() => {
    if (said?.kind !== 'success' || state === undefined) return;
    if (said.ledTo === undefined && state !== said.saidIn) setFeedback({ ...said, ledTo: state });
  }, [said, state]);
  const feedback = outlived(said, state) ? null : said;
  return { pending, feedback, run, dismiss: () => setFeedback(null) };
}

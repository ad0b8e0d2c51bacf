import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConnectorApi, ConnectorError } from '../api/connector';
import type { TSidebarTicketView } from '@incident-desk/sidebar-contract';

export interface TicketViewState {
  view: TSidebarTicketView | null;
  error: ConnectorError | null;
  /** True only until the first answer: the skeleton is shown then, never on a refresh. */
  loading: boolean;
  refreshing: boolean;
}

/**
 * Fetches the one-call sidebar view and keeps it fresh: periodically while the page is visible
 * and the app not paused (deactivated in Zendesk), and whenever refresh() is called. Answers older than the latest request are ignored, and the
 * last good view stays on screen during refreshes and errors, so nothing flickers.
 */
export function useTicketView(
  api: ConnectorApi,
  ticketId: number,
  refreshIntervalMs: number,
  paused = false,
) {
  const [state, setState] = useState<TicketViewState>({
    view: null,
    error: null,
    loading: true,
    refreshing: false,
  });
  const sequence = useRef(0);

  const refresh = useCallback(async () => {
    const mine = ++sequence.current;
    setState((s) => ({ ...s, refreshing: true }));
    const result = await api.getTicketView(ticketId);
    if (mine !== sequence.current) return;
    setState((s) =>
      result.ok
        ? { view: result.value, error: null, loading: false, refreshing: false }
        : { ...s, error: result.error, loading: false, refreshing: false },
    );
  }, [api, ticketId]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(() => {
    if (refreshIntervalMs <= 0 || paused) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void refresh();
    }, refreshIntervalMs);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [refresh, refreshIntervalMs, paused]);

  return { ...state, refresh };
}

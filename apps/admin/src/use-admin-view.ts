// What the admin page shows, loaded from the connector: the signed-in account's sections, or
// sign-in, an error, or the result of a disconnect. Reloaded after each action, and looked at
// again every few seconds while setup or a test delivery is under way.
import { useCallback, useEffect, useState } from 'react';
import type { DisconnectResult } from '@incident-desk/admin-contract';
import {
  api,
  ApiError,
  type DeadLetters,
  type FirstRun,
  type Overview,
  type ReconciliationEntry,
  type Session,
} from './api';
import { languageOf, type Language } from './i18n/i18n';

/** While setup or a test delivery is under way, the page looks again this often. */
const POLL_MS = 3000;
/** How long the page watches after an action whose outcome arrives later. */
const WATCH_MS = 60_000;

export interface Loaded {
  firstRun: FirstRun;
  overview: Overview;
  letters: DeadLetters;
  entries: ReconciliationEntry[];
}

export type View =
  | { kind: 'loading' }
  | { kind: 'signed-out' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; session: Session; data: Loaded }
  | { kind: 'disconnected'; subdomain: string; result: DisconnectResult };

async function loadView(onLanguage: (language: Language) => void): Promise<View> {
  try {
    const session = await api.session();
    onLanguage(languageOf(session.locale));
    const [firstRun, overview, letters, reconciliation] = await Promise.all([
      api.firstRun(),
      api.overview(),
      api.deadLetters(),
      api.reconciliation(),
    ]);
    return {
      kind: 'ready',
      session,
      data: { firstRun, overview, letters, entries: reconciliation.entries },
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { kind: 'signed-out' };
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The page's view; `refresh` loads it again, `watch` also keeps looking for a while (an outcome
 * that arrives later, such as a test delivery).
 */
export function useAdminView(onLanguage: (language: Language) => void) {
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    void loadView(onLanguage).then((next) => live && setView(next));
    return () => {
      live = false;
    };
  }, [onLanguage, version]);
  const refresh = useCallback(() => setVersion((v) => v + 1), []);

  const [watchUntil, setWatchUntil] = useState(0);
  const watch = useCallback(() => {
    setWatchUntil(Date.now() + WATCH_MS);
    refresh();
  }, [refresh]);
  const waiting =
    view.kind === 'ready' &&
    (['queued', 'running'].includes(view.data.overview.setup.state) || Date.now() < watchUntil);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(refresh, POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, version, refresh]);

  return { view, setView, refresh, watch };
}

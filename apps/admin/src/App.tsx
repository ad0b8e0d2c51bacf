// The admin page of one Zendesk account: who is signed in, then every section, reloaded after each
// action. Without a session it offers "Sign in with Zendesk".
import { useCallback, useEffect, useLayoutEffect, useState } from 'react';
import type { DisconnectResult } from '@incident-desk/admin-contract';
import { Button } from '@zendeskgarden/react-buttons';
import { Dots } from '@zendeskgarden/react-loaders';
import { Alert } from '@zendeskgarden/react-notifications';
import { SM, XXL } from '@zendeskgarden/react-typography';
import {
  api,
  ApiError,
  type DeadLetters as TDeadLetters,
  type FirstRun as TFirstRun,
  type Overview,
  type ReconciliationEntry,
  type Session,
} from './api';
import { Analytics } from './sections/Analytics';
import { Connection } from './sections/Connection';
import { DeadLetters } from './sections/DeadLetters';
import { Disconnect } from './sections/Disconnect';
import { Disconnected } from './sections/Disconnected';
import { DisconnectionNotice } from './sections/DisconnectionNotice';
import { FirstRun } from './sections/FirstRun';
import { Reconciliation } from './sections/Reconciliation';
import { Settings } from './sections/Settings';
import { Setup } from './sections/Setup';
import { SignIn } from './SignIn';
import { I18nProvider, languageOf, useTexts, type Language } from './i18n/i18n';

/** While setup or a test delivery is under way, the page looks again this often. */
const POLL_MS = 3000;
/** How long the page watches after an action whose outcome arrives later. */
const WATCH_MS = 60_000;

interface Loaded {
  firstRun: TFirstRun;
  overview: Overview;
  letters: TDeadLetters;
  entries: ReconciliationEntry[];
}

type View =
  | { kind: 'loading' }
  | { kind: 'signed-out' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; session: Session; data: Loaded }
  | { kind: 'disconnected'; subdomain: string; result: DisconnectResult };

/** Back from authorising a disconnect's removal with Zendesk: the dialog opens to confirm. */
function backFromRemovalAuthorization(): boolean {
  const params = new URLSearchParams(window.location.search);
  if (params.get('disconnect') !== 'authorized') return false;
  window.history.replaceState(null, '', window.location.pathname);
  return true;
}

/**
 * The page in the signed-in admin's language. Nothing but a wordless spinner shows until the
 * session answers, so a French admin never sees English first.
 */
export function App() {
  const [language, setLanguage] = useState<Language>('en');
  useLayoutEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  return (
    <I18nProvider language={language}>
      <AdminPage onLanguage={setLanguage} />
    </I18nProvider>
  );
}

function AdminPage({ onLanguage }: { onLanguage: (language: Language) => void }) {
  const t = useTexts();
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [confirmDisconnect] = useState(backFromRemovalAuthorization);
  const [version, setVersion] = useState(0);

  const load = useCallback(async () => {
    try {
      const session = await api.session();
      onLanguage(languageOf(session.locale));
      const [firstRun, overview, letters, reconciliation] = await Promise.all([
        api.firstRun(),
        api.overview(),
        api.deadLetters(),
        api.reconciliation(),
      ]);
      setView({
        kind: 'ready',
        session,
        data: { firstRun, overview, letters, entries: reconciliation.entries },
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) setView({ kind: 'signed-out' });
      else
        setView({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  }, [onLanguage]);

  useEffect(() => {
    void load();
  }, [load, version]);
  const refresh = useCallback(() => setVersion((v) => v + 1), []);

  // Setup under way, or a test delivery just asked for: look again until it shows (or a while).
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

  return (
    <main style={{ maxWidth: 960, margin: '24px auto', padding: '0 16px' }}>
      {view.kind === 'loading' ? null : (
        <XXL tag="h1" isBold style={{ marginBottom: 16 }}>
          {t.app.title}
        </XXL>
      )}
      {view.kind === 'loading' ? <Dots size={32} data-testid="loading" /> : null}
      {view.kind === 'signed-out' ? <SignIn /> : null}
      {view.kind === 'disconnected' ? (
        <Disconnected subdomain={view.subdomain} result={view.result} />
      ) : null}
      {view.kind === 'error' ? (
        <Alert type="error" role="alert">
          <Alert.Title>{t.app.loadFailed}</Alert.Title>
          <Alert.Paragraph>{view.message}</Alert.Paragraph>
        </Alert>
      ) : null}
      {view.kind === 'ready' ? (
        <>
          <div
            id="signed-in"
            style={{ display: 'flex', gap: 12, alignItems: 'center', marginBottom: 24 }}
          >
            <SM>{t.app.signedInAs(view.session.userName, view.session.subdomain)}</SM>
            <Button
              size="small"
              isBasic
              id="sign-out"
              onClick={async () => {
                await api.signOut().catch(() => undefined);
                setView({ kind: 'signed-out' });
              }}
            >
              {t.app.signOut}
            </Button>
          </div>
          <DisconnectionNotice overview={view.data.overview} />
          {view.data.firstRun.complete ? null : (
            <FirstRun firstRun={view.data.firstRun} overview={view.data.overview} refresh={watch} />
          )}
          <Connection overview={view.data.overview} />
          <Setup overview={view.data.overview} refresh={refresh} />
          <DeadLetters letters={view.data.letters} refresh={refresh} />
          <Reconciliation entries={view.data.entries} refresh={refresh} />
          {view.data.overview.incident.apiKey === 'set' ? <Analytics /> : null}
          <Settings
            overview={view.data.overview}
            refresh={watch}
            showIncidentForm={
              view.data.firstRun.complete ||
              view.data.firstRun.steps.find((step) => step.id === 'incident_key')?.state === 'done'
            }
          />
          <Disconnect
            overview={view.data.overview}
            openAtStart={confirmDisconnect}
            onDisconnected={(result) =>
              setView({ kind: 'disconnected', subdomain: view.session.subdomain, result })
            }
          />
        </>
      ) : null}
    </main>
  );
}

// The admin page of one Zendesk account: who is signed in, then every section, reloaded after each
// action. Without a session it offers "Sign in with Zendesk".
import { useLayoutEffect, useState } from 'react';
import type { DisconnectResult } from '@incident-desk/admin-contract';
import { Button } from '@zendeskgarden/react-buttons';
import { Dots } from '@zendeskgarden/react-loaders';
import { Alert } from '@zendeskgarden/react-notifications';
import { SM, XXL } from '@zendeskgarden/react-typography';
import { api, type Session } from './api';
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
import { I18nProvider, useTexts, type Language } from './i18n/i18n';
import { useAdminView, type Loaded } from './use-admin-view';

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

function SignedInAs(props: { session: Session; onSignedOut: () => void }) {
  const t = useTexts();
  return (
    <div
      id="signed-in"
      style={{ display: 'flex', gap: 12, alignItems: 'center', marginBottom: 24 }}
    >
      <SM>{t.app.signedInAs(props.session.userName, props.session.subdomain)}</SM>
      <Button
        size="small"
        isBasic
        id="sign-out"
        onClick={async () => {
          await api.signOut().catch(() => undefined);
          props.onSignedOut();
        }}
      >
        {t.app.signOut}
      </Button>
    </div>
  );
}

/** Every section of the signed-in account. */
function AccountSections(props: {
  data: Loaded;
  refresh: () => void;
  watch: () => void;
  confirmDisconnect: boolean;
  onDisconnected: (result: DisconnectResult) => void;
}) {
  const { data, refresh, watch } = props;
  const { firstRun, overview } = data;
  return (
    <>
      <DisconnectionNotice overview={overview} />
      {firstRun.complete ? null : (
        <FirstRun firstRun={firstRun} overview={overview} refresh={watch} />
      )}
      <Connection overview={overview} />
      <Setup overview={overview} refresh={refresh} />
      <DeadLetters letters={data.letters} refresh={refresh} />
      <Reconciliation entries={data.entries} refresh={refresh} />
      {overview.incident.apiKey === 'set' ? <Analytics /> : null}
      <Settings
        overview={overview}
        refresh={watch}
        showIncidentForm={
          firstRun.complete ||
          firstRun.steps.find((step) => step.id === 'incident_key')?.state === 'done'
        }
      />
      <Disconnect
        overview={overview}
        openAtStart={props.confirmDisconnect}
        onDisconnected={props.onDisconnected}
      />
    </>
  );
}

function AdminPage({ onLanguage }: { onLanguage: (language: Language) => void }) {
  const t = useTexts();
  const { view, setView, refresh, watch } = useAdminView(onLanguage);
  const [confirmDisconnect] = useState(backFromRemovalAuthorization);
  return (
    <main style={{ maxWidth: 960, margin: '24px auto', padding: '0 16px' }}>
      {view.kind === 'loading' ? (
        <Dots size={32} data-testid="loading" />
      ) : (
        <XXL tag="h1" isBold style={{ marginBottom: 16 }}>
          {t.app.title}
        </XXL>
      )}
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
          <SignedInAs session={view.session} onSignedOut={() => setView({ kind: 'signed-out' })} />
          <AccountSections
            data={view.data}
            refresh={refresh}
            watch={watch}
            confirmDisconnect={confirmDisconnect}
            onDisconnected={(result) =>
              setView({ kind: 'disconnected', subdomain: view.session.subdomain, result })
            }
          />
        </>
      ) : null}
    </main>
  );
}

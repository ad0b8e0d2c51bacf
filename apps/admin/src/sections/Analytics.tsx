// Takedown analytics of the account, for all its incident clients or one: reports per week by type
// or outcome, time to takedown by registrar and hosting provider, success rate, blocklist
// coverage, credits, and incidents waiting on the customer. Loaded on its own, so a slow incident
// service never holds up the rest of the page; a part the service did not answer is named.
import { useCallback, useEffect, useState } from 'react';
import { Button } from '@zendeskgarden/react-buttons';
import { Field, Select } from '@zendeskgarden/react-forms';
import { Dots } from '@zendeskgarden/react-loaders';
import { Alert } from '@zendeskgarden/react-notifications';
import { SM } from '@zendeskgarden/react-typography';
import { analyticsCsvUrl, api, ApiError, type Analytics as TAnalytics } from '../api';
import type { StackBy } from '../analytics-shape';
import { useTexts } from '../i18n/i18n';
import { Section } from '../ui';
import { AnalyticsCharts } from './AnalyticsCharts';

type State =
  | { kind: 'loading' }
  | { kind: 'error'; message: string; notConnected: boolean }
  | { kind: 'ready'; data: TAnalytics };

type Client = { id: string; name: string | null };

/** The analytics of the chosen client (all when ''), loaded again whenever the choice changes. */
function useAnalytics() {
  const [client, setClient] = useState<string>('');
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [clients, setClients] = useState<Client[]>([]);

  const load = useCallback(async (clientId: string) => {
    setState({ kind: 'loading' });
    try {
      const data = await api.analytics(clientId || null);
      if (!clientId) setClients(data.clients);
      setState({ kind: 'ready', data });
    } catch (error) {
      setState({
        kind: 'error',
        message: error instanceof Error ? error.message : String(error),
        notConnected: error instanceof ApiError && error.code === 'not_configured',
      });
    }
  }, []);
  useEffect(() => {
    void load(client);
  }, [client, load]);
  return { client, setClient, clients, state, reload: () => void load(client) };
}

function Controls(props: {
  client: string;
  clients: Client[];
  onClient: (client: string) => void;
  onReload: () => void;
  loading: boolean;
}) {
  const t = useTexts().analytics;
  return (
    <div
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 16,
        alignItems: 'flex-end',
        marginBottom: 16,
      }}
    >
      <Field style={{ minWidth: 260 }}>
        <Field.Label>{t.client}</Field.Label>
        <Select
          name="analyticsClient"
          value={props.client}
          onChange={(event) => props.onClient(event.target.value)}
        >
          <option value="">{t.allClients}</option>
          {props.clients.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name ? `${c.name} (${c.id})` : c.id}
            </option>
          ))}
        </Select>
      </Field>
      <Button size="small" onClick={props.onReload} disabled={props.loading}>
        {t.reload}
      </Button>
    </div>
  );
}

function LoadProblem({ state }: { state: Extract<State, { kind: 'error' }> }) {
  const t = useTexts().analytics;
  return (
    <Alert type={state.notConnected ? 'info' : 'error'} role="alert">
      <Alert.Title>{state.notConnected ? t.noAnalytics : t.loadFailed}</Alert.Title>
      <Alert.Paragraph>{state.notConnected ? t.saveKeyFirst : state.message}</Alert.Paragraph>
    </Alert>
  );
}

export function Analytics() {
  const t = useTexts().analytics;
  const analytics = useAnalytics();
  // kept here, not in the charts, so a reload or another client keeps the stacking
  const [by, setBy] = useState<StackBy>('outcome');
  const { state, client } = analytics;
  const csv = (chart: Parameters<typeof analyticsCsvUrl>[0]) =>
    analyticsCsvUrl(chart, client || null);
  return (
    <Section id="analytics" title={t.title}>
      <SM style={{ marginBottom: 12 }}>{t.intro}</SM>
      <Controls
        client={client}
        clients={analytics.clients}
        onClient={analytics.setClient}
        onReload={analytics.reload}
        loading={state.kind === 'loading'}
      />
      {state.kind === 'loading' ? <Dots size={24} aria-label={t.loading} /> : null}
      {state.kind === 'error' ? <LoadProblem state={state} /> : null}
      {state.kind === 'ready' ? (
        <AnalyticsCharts data={state.data} by={by} setBy={setBy} csv={csv} />
      ) : null}
    </Section>
  );
}

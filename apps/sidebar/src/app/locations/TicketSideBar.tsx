import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button } from '@zendeskgarden/react-buttons';
import { Alert } from '@zendeskgarden/react-notifications';
import { createConnectorApi, type ConnectorApi } from '../api/connector';
import type { ConnectorError } from '../api/connectorErrors';
import { withPrefetchedView } from '../api/prefetchedView';
import { readPageFailure } from '../api/pageSession';
import { connectorTransport } from '../api/transport';
import type { TPartName, TSidebarTicketView } from '@incident-desk/sidebar-contract';
import { DateTime } from '../components/DateTime';
import { ErrorPanel } from '../components/ErrorPanel';
import { IncidentDetails } from '../components/IncidentDetails';
import { LoadingSkeleton } from '../components/LoadingSkeleton';
import { preloadConfirmDialog } from '../components/LazyConfirmDialog';
import { StatusCard } from '../components/StatusCard';
import { LinkFailedCard } from '../components/LinkFailedCard';
import { NotReportedCard } from '../components/NotReportedCard';
import { SyncHealth } from '../components/SyncHealth';
import { Muted, Row, Stack } from '../components/layout';
import { useClient } from '../hooks/useClient';
import { useI18n } from '../hooks/useI18n';
import { useSession } from '../hooks/useSession';
import { useTicketView } from '../hooks/useTicketView';
import { useZafEvents } from '../hooks/useZafEvents';
import { ViewerContext } from '../contexts/viewerContext';
import { markViewReady } from '../lib/perfMarks';

export interface TicketSideBarProps {
  /** Periodic refresh while visible; 0 disables it. Default 60 s. */
  refreshIntervalMs?: number;
}

export function TicketSideBar({ refreshIntervalMs = 60_000 }: TicketSideBarProps) {
  const { t } = useI18n();
  const client = useClient();
  const session = useSession();
  const { status } = session;
  const ready = session.status === 'ready' ? session : null;
  // The connector that served this page, with the session it gave it; null when the page was not
  // opened by Zendesk's signed request (no session: nothing to ask the connector).
  const transport = useMemo(() => connectorTransport(client), [client]);
  // Zendesk signed the page, but the connector could not read the account in Zendesk
  const pageFailure = useMemo(() => readPageFailure(), []);
  const api = useMemo(
    // The boot code may already have asked for this ticket's view: the first load uses that answer.
    () => (transport ? withPrefetchedView(createConnectorApi(transport), client) : null),
    [client, transport],
  );

  if (pageFailure) {
    return (
      <Alert type="error" role="alert" data-testid="page-failure">
        <Alert.Title>{t('pageFailure.title')}</Alert.Title>
        <Alert.Paragraph>{t(`pageFailure.${pageFailure}`)}</Alert.Paragraph>
      </Alert>
    );
  }
  if (status === 'not_configured' || !api) {
    return (
      <Alert type="warning" role="alert" data-testid="not-configured">
        <Alert.Title>{t('notConfigured.title')}</Alert.Title>
        <Alert.Paragraph>{t('notConfigured.body')}</Alert.Paragraph>
      </Alert>
    );
  }
  if (status === 'new_ticket') {
    return (
      <Alert type="info" data-testid="new-ticket">
        <Alert.Title>{t('newTicket.title')}</Alert.Title>
        <Alert.Paragraph>{t('newTicket.body')}</Alert.Paragraph>
      </Alert>
    );
  }
  if (status === 'error') {
    return (
      <ErrorPanel
        error={{ kind: 'network' }}
        title={t('session.error')}
        message={t('session.errorBody')}
        onRetry={session.retry}
      />
    );
  }
  if (!ready) return <LoadingSkeleton />;
  return (
    <TicketView
      key={ready.ticketId}
      api={api}
      ticketId={ready.ticketId}
      refreshIntervalMs={refreshIntervalMs}
    />
  );
}

interface ViewProps {
  api: ConnectorApi;
  ticketId: number;
  refreshIntervalMs: number;
}

function eventsFor(view: TSidebarTicketView | null): string[] {
  const ids = Object.values(view?.ticket.fieldIds ?? {}).filter(
    (id): id is number => typeof id === 'number',
  );
  // ticket.saved reaches the background location only (Zendesk removes a sidebar before it fires);
  // ticket.updated says someone else (the connector) changed the ticket, notes included.
  return [
    'ticket.tags.changed',
    'ticket.updated',
    'app.activated',
    ...ids.map((id) => `ticket.custom_field_${id}.changed`),
  ];
}

/** Zendesk activates the app when it first loads: the view being fetched then is already fresh. */
function isFirstActivation(name: string, payload: unknown): boolean {
  return (
    name === 'app.activated' && (payload as { firstLoad?: unknown } | undefined)?.firstLoad === true
  );
}

/** Zendesk keeps the iframe of a background ticket tab "visible"; app.deactivated says it is not shown. */
function useAppActive() {
  const client = useClient();
  const [active, setActive] = useState(true);
  useEffect(() => {
    const activate = () => setActive(true);
    const deactivate = () => setActive(false);
    client.on('app.activated', activate);
    client.on('app.deactivated', deactivate);
    return () => {
      client.off('app.activated', activate);
      client.off('app.deactivated', deactivate);
    };
  }, [client]);
  return active;
}

/** Marks the view ready once it shows a ticket, then preloads the dialogs' code. */
function useViewReady(linkState: string | undefined) {
  useEffect(() => {
    if (!linkState) return;
    markViewReady(linkState);
    // The dialogs' code, now that the view is on screen, so the first click does not wait for it.
    const timer = setTimeout(() => void preloadConfirmDialog().catch(() => undefined), 0);
    return () => clearTimeout(timer);
  }, [linkState]);
}

/** No view to show: the account's setup is missing, or the view could not be read. */
function ViewLoadFailed({
  error,
  context,
  onRetry,
}: {
  error: ConnectorError | null;
  context: string;
  onRetry: () => void;
}) {
  const { t } = useI18n();
  if (error?.kind === 'not_configured') {
    return (
      <Alert type="warning" role="alert" data-testid="not-configured">
        <Alert.Title>{t('notConfigured.title')}</Alert.Title>
        <Alert.Paragraph>{t('notConfigured.accountBody')}</Alert.Paragraph>
        <Button size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Alert>
    );
  }
  return (
    <ErrorPanel
      error={error ?? { kind: 'network' }}
      title={t('view.loadFailed')}
      context={context}
      onRetry={onRetry}
    />
  );
}

function TicketView({ api, ticketId, refreshIntervalMs }: ViewProps) {
  const { t } = useI18n();
  const client = useClient();
  const active = useAppActive();
  const { view, error, loading, refreshing, refresh } = useTicketView(
    api,
    ticketId,
    refreshIntervalMs,
    !active,
  );
  const onChanged = useCallback(() => void refresh(), [refresh]);
  useZafEvents(client, eventsFor(view), onChanged, undefined, isFirstActivation);
  useViewReady(view?.ticket.linkState);

  const context = t('view.ticketContext', { id: ticketId });
  if (loading) return <LoadingSkeleton context={context} />;
  if (!view) return <ViewLoadFailed error={error} context={context} onRetry={onChanged} />;

  const unavailable = (part: TPartName) => view.unavailable.find((u) => u.part === part);
  const incident = view.incident;
  // what is wrong between the ticket and the incident comes first, never below the details
  const problems = (
    <SyncHealth api={api} ticketId={ticketId} sync={view.sync} onChanged={onChanged} />
  );
  return (
    <ViewerContext.Provider value={view.viewer}>
      <Stack aria-busy={refreshing} data-testid={`state-${view.ticket.linkState}`}>
        <Row>
          <Muted>
            {t('view.updated')} <DateTime value={view.fetchedAt} />
          </Muted>
          <Button size="small" isBasic onClick={onChanged} disabled={refreshing}>
            {refreshing ? t('view.refreshing') : t('view.refresh')}
          </Button>
        </Row>
        {error ? (
          <ErrorPanel error={error} title={t('view.refreshFailed')} onRetry={onChanged} />
        ) : null}
        {view.ticket.linkState === 'linked' ? (
          <>
            <StatusCard
              api={api}
              ticket={view.ticket}
              incident={incident}
              incidentUnavailable={unavailable('incident')}
              usage={view.usage}
              analystRequest={view.analystRequest}
              requestedAction={view.requestedAction}
              problems={problems}
              onChanged={onChanged}
            />
            <IncidentDetails view={view} />
          </>
        ) : (
          <>
            {problems}
            {view.ticket.linkState === 'failed' ? (
              <LinkFailedCard api={api} ticket={view.ticket} onChanged={onChanged} />
            ) : (
              <NotReportedCard ticket={view.ticket} onChanged={onChanged} />
            )}
          </>
        )}
      </Stack>
    </ViewerContext.Provider>
  );
}

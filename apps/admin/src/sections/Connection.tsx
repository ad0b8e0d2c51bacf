import { Tag } from '@zendeskgarden/react-tags';
import type { Overview } from '../api';
import { Row, Section, When } from '../ui';
import { useTexts } from '../i18n/i18n';
import { TicketWrites } from './TicketWrites';

const STATE_HUE = {
  active: 'green',
  reauthorization_required: 'red',
  not_connected: 'grey',
} as const;

export function Connection({ overview }: { overview: Overview }) {
  const { connection, health, account } = overview;
  const t = useTexts().connection;
  // Zendesk refusing the token outranks its expiry date
  const refused =
    connection.state === 'active' &&
    overview.ticketWrites.state === 'failing' &&
    overview.ticketWrites.failure?.cause === 'reauthorization_required';
  const [hue, label] = refused
    ? (['red', t.tokenRefused] as const)
    : [STATE_HUE[connection.state], t.stateLabel[connection.state]];
  return (
    <>
      <Section id="connection" title={t.title}>
        <Row label={t.account} testId="zendesk-account">
          {t.accountAt(account.subdomain, account.zendeskUrl)}
        </Row>
        <Row label={t.state} testId="connection-state">
          <Tag hue={hue}>{label}</Tag>
        </Row>
        <TicketWrites overview={overview} />
        {connection.state === 'reauthorization_required' ? (
          <Row label={t.authoriseAgain}>
            <a href={`/install?subdomain=${encodeURIComponent(account.subdomain)}`}>
              {t.authoriseLink}
            </a>
          </Row>
        ) : null}
        <Row label={t.grantedScopes} testId="scopes">
          {connection.scopes.join(' ') || t.none}
        </Row>
        {connection.missingScopes.length > 0 ? (
          <Row label={t.missingScopes} testId="missing-scopes">
            <Tag hue="red">{t.missingScope(connection.missingScopes.join(', '))}</Tag>
          </Row>
        ) : null}
        <Row label={t.accessExpires}>
          <When value={connection.accessExpiresAt} />
        </Row>
        <Row label={t.refreshExpires}>
          <When value={connection.refreshExpiresAt} never={t.noRefreshToken} />
        </Row>
        {connection.lastError ? (
          <Row label={t.lastProblem} testId="last-error">
            {connection.lastError} (<When value={connection.lastErrorAt} />)
          </Row>
        ) : null}
      </Section>
      <Section id="health" title={t.webhooks}>
        <Row label={t.lastFromZendesk}>
          <When value={health.lastZendeskWebhookAt} />
        </Row>
        <Row label={t.lastFromIncident}>
          <When value={health.lastIncidentEventAt} />
        </Row>
        <Row label={t.lastWebhookTest}>
          <When value={health.lastWebhookTestAt} />
        </Row>
        {health.subscriptions.map((subscription) => (
          <Row
            key={subscription.clientId}
            label={t.client(subscription.clientId)}
            testId={`client-events-${subscription.clientId}`}
          >
            {subscription.lastEventAt ? (
              <>
                {t.lastRealEvent} <When value={subscription.lastEventAt} />
              </>
            ) : (
              <Tag hue="yellow">{t.noRealEvent}</Tag>
            )}
            {t.lastClientTest}
            <When value={subscription.lastWebhookTestAt} />
          </Row>
        ))}
      </Section>
    </>
  );
}

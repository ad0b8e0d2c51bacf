import { Tag } from '@zendeskgarden/react-tags';
import type { Overview } from '../api';
import { Row, Section, When } from '../ui';
import { TicketWrites } from './TicketWrites';

const STATE_LABEL = {
  active: ['green', 'Token valid'],
  reauthorization_required: ['red', 'Re-authorisation needed'],
  not_connected: ['grey', 'Not connected'],
} as const;

export function Connection({ overview }: { overview: Overview }) {
  const { connection, health, account } = overview;
  // Zendesk refusing the token outranks its expiry date
  const refused =
    connection.state === 'active' &&
    overview.ticketWrites.state === 'failing' &&
    overview.ticketWrites.failure?.cause === 'reauthorization_required';
  const [hue, label] = refused
    ? (['red', 'Token refused by Zendesk'] as const)
    : STATE_LABEL[connection.state];
  return (
    <>
      <Section id="connection" title="Zendesk connection">
        <Row label="Account">{account.subdomain}</Row>
        <Row label="State" testId="connection-state">
          <Tag hue={hue}>{label}</Tag>
        </Row>
        <TicketWrites overview={overview} />
        {connection.state === 'reauthorization_required' ? (
          <Row label="Authorise again">
            <a href={`/install?subdomain=${encodeURIComponent(account.subdomain)}`}>
              Authorise incident-desk with Zendesk
            </a>
          </Row>
        ) : null}
        <Row label="Granted scopes" testId="scopes">
          {connection.scopes.join(' ') || 'none'}
        </Row>
        {connection.missingScopes.length > 0 ? (
          <Row label="Missing scopes" testId="missing-scopes">
            <Tag hue="red">missing scope: {connection.missingScopes.join(', ')}</Tag>
          </Row>
        ) : null}
        <Row label="Access token expires">
          <When value={connection.accessExpiresAt} />
        </Row>
        <Row label="Refresh token expires">
          <When value={connection.refreshExpiresAt} never="no refresh token" />
        </Row>
        {connection.lastError ? (
          <Row label="Last problem" testId="last-error">
            {connection.lastError} (<When value={connection.lastErrorAt} />)
          </Row>
        ) : null}
      </Section>
      <Section id="health" title="Webhooks">
        <Row label="Last from Zendesk">
          <When value={health.lastZendeskWebhookAt} />
        </Row>
        <Row label="Last from the incident service">
          <When value={health.lastIncidentEventAt} />
        </Row>
        <Row label="Last webhook.test">
          <When value={health.lastWebhookTestAt} />
        </Row>
        {health.subscriptions.map((subscription) => (
          <Row
            key={subscription.clientId}
            label={`Client ${subscription.clientId}`}
            testId={`client-events-${subscription.clientId}`}
          >
            {subscription.lastEventAt ? (
              <>
                last real event <When value={subscription.lastEventAt} />
              </>
            ) : (
              <Tag hue="yellow">no real event yet</Tag>
            )}
            {'; last webhook.test '}
            <When value={subscription.lastWebhookTestAt} never="never" />
          </Row>
        ))}
      </Section>
    </>
  );
}

import { Alert } from '@zendeskgarden/react-notifications';
import type { Overview } from '../api';
import { disconnectionText } from '../disconnect-text';
import { When } from '../ui';

/** At the top of the page while the account is disconnected: why, since when, what to do. */
export function DisconnectionNotice({ overview }: { overview: Overview }) {
  const { disconnection, account } = overview;
  if (!disconnection) return null;
  const text = disconnectionText(disconnection);
  return (
    <Alert type="warning" role="alert" id="disconnection" style={{ marginBottom: 24 }}>
      <Alert.Title>{text.title}</Alert.Title>
      <Alert.Paragraph>
        {text.sentence} (since <When value={disconnection.since} />
        {disconnection.detail ? `; ${disconnection.detail}` : ''})
      </Alert.Paragraph>
      {disconnection.reason === 'admin_disconnect' ? null : (
        <Alert.Paragraph>
          <a href={`/install?subdomain=${encodeURIComponent(account.subdomain)}`}>
            Authorise incident-desk with Zendesk again
          </a>
        </Alert.Paragraph>
      )}
    </Alert>
  );
}

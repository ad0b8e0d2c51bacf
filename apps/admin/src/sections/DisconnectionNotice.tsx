import { Alert } from '@zendeskgarden/react-notifications';
import type { Overview } from '../api';
import { disconnectionText } from '../disconnect-text';
import { useTexts } from '../i18n/i18n';
import { When } from '../ui';

/** At the top of the page while the account is disconnected: why, since when, what to do. */
export function DisconnectionNotice({ overview }: { overview: Overview }) {
  const t = useTexts().disconnection;
  const { disconnection, account } = overview;
  if (!disconnection) return null;
  const text = disconnectionText(disconnection, t);
  return (
    <Alert type="warning" role="alert" id="disconnection" style={{ marginBottom: 24 }}>
      <Alert.Title>{text.title}</Alert.Title>
      <Alert.Paragraph>
        {text.sentence} ({t.since} <When value={disconnection.since} />
        {disconnection.detail ? `; ${disconnection.detail}` : ''})
      </Alert.Paragraph>
      {disconnection.reason === 'admin_disconnect' ? null : (
        <Alert.Paragraph>
          <a href={`/install?subdomain=${encodeURIComponent(account.subdomain)}`}>
            {t.authoriseAgain}
          </a>
        </Alert.Paragraph>
      )}
    </Alert>
  );
}

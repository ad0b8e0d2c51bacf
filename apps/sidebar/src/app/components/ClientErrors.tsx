import { Alert } from '@zendeskgarden/react-notifications';
import { useI18n } from '../hooks/useI18n';
import { RetryAlert } from './ErrorPanel';

/** ZAFClient.init() returned false: the page was opened directly, not by Zendesk. */
export function OutsideZendesk() {
  const { t } = useI18n();
  return (
    <Alert type="info" role="alert" data-testid="outside-zendesk">
      <Alert.Title>{t('client.outside.title')}</Alert.Title>
      <Alert.Paragraph>{t('client.outside.body')}</Alert.Paragraph>
    </Alert>
  );
}

/** The host never registered the app (or the handshake failed). */
export function ZendeskUnreachable({ onRetry }: { onRetry: () => void }) {
  const { t } = useI18n();
  return (
    <RetryAlert
      type="error"
      title={t('client.unreachable.title')}
      onRetry={onRetry}
      testId="zendesk-unreachable"
    >
      <Alert.Paragraph>{t('client.unreachable.body')}</Alert.Paragraph>
    </RetryAlert>
  );
}

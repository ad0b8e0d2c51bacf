import { Alert } from '@zendeskgarden/react-notifications';
import { Button } from '@zendeskgarden/react-buttons';
import type { ConnectorError } from '../api/connectorErrors';
import { useI18n } from '../hooks/useI18n';
import { errorMessage } from './errorMessages';
import { Stack } from './layout';

interface Props {
  error: ConnectorError;
  onRetry: () => void;
  /** Context sentence, e.g. "Could not load the incident." */
  title?: string;
  /** Replaces the error's standard explanation. */
  message?: string;
}

export function ErrorPanel({ error, onRetry, title, message }: Props) {
  const { t } = useI18n();
  const { key, vars } = errorMessage(error);
  return (
    <Alert type={error.kind === 'retry_later' ? 'warning' : 'error'} role="alert">
      <Stack>
        {title ? <Alert.Title>{title}</Alert.Title> : null}
        <Alert.Paragraph>{message ?? t(key, vars)}</Alert.Paragraph>
        <div>
          <Button size="small" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </div>
      </Stack>
    </Alert>
  );
}

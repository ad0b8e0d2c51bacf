import type { ReactNode } from 'react';
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
  /** What the error is about (the ticket), kept on screen so the agent knows where they are. */
  context?: string;
}

export function ErrorPanel({ error, onRetry, title, message, context }: Props) {
  const { t } = useI18n();
  const { key, vars } = errorMessage(error);
  return (
    <RetryAlert
      type={error.kind === 'retry_later' ? 'warning' : 'error'}
      title={title}
      onRetry={onRetry}
    >
      {context ? <Alert.Paragraph data-testid="error-context">{context}</Alert.Paragraph> : null}
      <Alert.Paragraph>{message ?? t(key, vars)}</Alert.Paragraph>
    </RetryAlert>
  );
}

/** An alert whose last line is a Retry button. */
export function RetryAlert({
  type,
  title,
  onRetry,
  testId,
  children,
}: {
  type: 'error' | 'warning';
  title?: string;
  onRetry: () => void;
  testId?: string;
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Alert type={type} role="alert" data-testid={testId}>
      <Stack>
        {title ? <Alert.Title>{title}</Alert.Title> : null}
        {children}
        <div>
          <Button size="small" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </div>
      </Stack>
    </Alert>
  );
}

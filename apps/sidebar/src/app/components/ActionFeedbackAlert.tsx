import { Alert } from '@zendeskgarden/react-notifications';
import { Button } from '@zendeskgarden/react-buttons';
import type { ConnectorError } from '../api/connectorErrors';
import { useI18n } from '../hooks/useI18n';
import { errorMessage } from './errorMessages';
import { Row, Stack } from './layout';
import type { ActionFeedback } from './useActionRunner';

interface Props {
  feedback: ActionFeedback | null;
  onRetry: (feedback: ActionFeedback) => void;
  onDismiss: () => void;
}

/** Failures another attempt may get past: offered a Retry. */
const RETRYABLE = new Set([
  'network',
  'retry_later',
  'zendesk_unavailable',
  'http',
  'invalid_response',
]);

/** Actions whose acceptance is not their outcome (a queued report): told as news, not as success. */
const QUEUED_ACTIONS = new Set(['retryLink', 'retryUpdates']);

export function ActionFeedbackAlert({ feedback, onRetry, onDismiss }: Props) {
  const { t, lookUp } = useI18n();
  if (!feedback) return <div role="status" aria-live="polite" />;
  if (feedback.kind === 'success') {
    const queued = QUEUED_ACTIONS.has(feedback.action.id);
    return (
      <div
        role="status"
        aria-live="polite"
        data-testid="action-feedback"
        data-outcome={queued ? 'queued' : 'success'}
      >
        <Alert type={queued ? 'info' : 'success'}>
          <Alert.Paragraph>{t(`actions.${feedback.action.id}.success`)}</Alert.Paragraph>
          <Alert.Close aria-label={t('common.dismiss')} onClick={onDismiss} />
        </Alert>
      </div>
    );
  }
  // Action-specific wording first (approve's 403 is about credits), then the generic one.
  const generic = errorMessage(feedback.error);
  const text =
    lookUp(`actions.${feedback.action.id}.errors.${feedback.error.kind}`) ??
    t(generic.key, generic.vars);
  return (
    <div data-testid="action-feedback">
      <Alert type={feedback.error.kind === 'retry_later' ? 'warning' : 'error'} role="alert">
        <Stack>
          <Alert.Title>{t(`actions.${feedback.action.id}.failed`)}</Alert.Title>
          <Alert.Paragraph>{text}</Alert.Paragraph>
          <RetryOrDismiss
            error={feedback.error}
            onRetry={() => onRetry(feedback)}
            onDismiss={onDismiss}
          />
        </Stack>
      </Alert>
    </div>
  );
}

/**
 * A failure's Retry (when another attempt may get past it) and Dismiss, as buttons: no close icon
 * narrowing the text in a 320 px panel.
 */
export function RetryOrDismiss({
  error,
  onRetry,
  onDismiss,
}: {
  error: ConnectorError;
  onRetry: () => void;
  onDismiss: () => void;
}) {
  const { t } = useI18n();
  return (
    <Row>
      {RETRYABLE.has(error.kind) ? (
        <Button size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      ) : null}
      <Button size="small" isBasic onClick={onDismiss}>
        {t('common.dismiss')}
      </Button>
    </Row>
  );
}

import { Button } from '@zendeskgarden/react-buttons';
import { SM } from '@zendeskgarden/react-typography';
import type { ConnectorApi } from '../api/connector';
import type { TSyncHealth } from '../api/sidebarContract';
import { useI18n } from '../hooks/useI18n';
import { ActionFeedbackAlert } from './ActionFeedbackAlert';
import { DateTime } from './DateTime';
import { Breakable, Fields, Muted, PlainList, Row, Section } from './layout';
import { useActionRunner } from './useActionRunner';

interface Props {
  api: ConnectorApi;
  ticketId: number;
  sync: TSyncHealth;
  onChanged: () => void;
}

export function SyncHealth({ api, ticketId, sync, onChanged }: Props) {
  const { t } = useI18n();
  const runner = useActionRunner(onChanged);
  const healthy = sync.failedForwards.length === 0;
  return (
    <Section title={t('sync.title')} testId="sync">
      <Fields
        items={[
          {
            label: t('sync.lastEventApplied'),
            value: <DateTime value={sync.lastEventAppliedAt} unknownKey="sync.noEventYet" />,
          },
          { label: t('sync.pendingForwards'), value: String(sync.pendingForwards) },
          { label: t('sync.failedForwards'), value: String(sync.failedForwards.length) },
        ]}
      />
      {healthy ? <Muted>{t('sync.healthy')}</Muted> : null}
      <ActionFeedbackAlert
        feedback={runner.feedback}
        onRetry={(feedback) => void runner.run(feedback.action)}
        onDismiss={runner.dismiss}
      />
      {!healthy ? (
        <PlainList>
          {sync.failedForwards.map((forward) => (
            <li key={forward.id} data-testid="failed-forward">
              <SM isBold>{t('sync.forwardKind', { kind: forward.kind })}</SM>
              <Muted>
                <DateTime value={forward.failedAt} unknownKey="common.unknown" /> ·{' '}
                {t('sync.attempts', { count: forward.attempts })}
              </Muted>
              <SM>
                <Breakable>{forward.lastError}</Breakable>
              </SM>
              <Row>
                <Button
                  size="small"
                  disabled={runner.pending !== null}
                  aria-label={t('sync.retryForwardLabel', { kind: forward.kind })}
                  onClick={() =>
                    void runner.run({
                      id: 'retryForward',
                      run: () => api.retryForward(ticketId, forward.id),
                    })
                  }
                >
                  {t('common.retry')}
                </Button>
              </Row>
            </li>
          ))}
        </PlainList>
      ) : null}
    </Section>
  );
}

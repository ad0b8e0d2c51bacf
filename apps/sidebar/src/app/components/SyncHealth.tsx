import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Alert } from '@zendeskgarden/react-notifications';
import { Button } from '@zendeskgarden/react-buttons';
import { SM } from '@zendeskgarden/react-typography';
import type { ConnectorApi } from '../api/connector';
import type { TSyncHealth } from '@incident-desk/sidebar-contract';
import { useI18n } from '../hooks/useI18n';
import { useViewer } from '../contexts/viewerContext';
import { enumLabel } from '../lib/labels';
import { ActionFeedbackAlert } from './ActionFeedbackAlert';
import { DateTime } from './DateTime';
import { Breakable, Muted, PlainList, Row, Stack } from './layout';
import { useActionRunner } from './useActionRunner';

interface Props {
  api: ConnectorApi;
  ticketId: number;
  sync: TSyncHealth;
  onChanged: () => void;
}

/**
 * Incident changes waiting longer than this for the ticket are late: the writer paces itself under
 * Zendesk's limits, so a short wait is normal and not worth an alert.
 */
export const LATE_AFTER_MS = 2 * 60_000;

/** When the ticket's waiting updates became late, or null while none is. */
function lateSince(sync: TSyncHealth, now: number): string | null {
  if (sync.waitingTicketUpdates === 0 || sync.waitingSince === null) return null;
  const since = Date.parse(sync.waitingSince);
  return Number.isNaN(since) || now - since < LATE_AFTER_MS ? null : sync.waitingSince;
}

/**
 * Nothing while all is in sync; an alert, with a retry per failed update, when something failed,
 * and a notice when incident changes wait for the ticket longer than they should, with "Retry now"
 * (or, while Zendesk has paused the account's updates, when the next attempt is: a retry cannot
 * bring it forward).
 */
export function SyncHealth({ api, ticketId, sync, onChanged }: Props) {
  const { t, lookUp } = useI18n();
  const { canAct } = useViewer();
  const runner = useActionRunner(onChanged);
  const failed = sync.failedForwards;
  const late = lateSince(sync, Date.now());
  const paused = sync.writesPausedUntil;
  const lateNotice = late ? (
    <SM data-testid="sync-late">
      {t('sync.updatesLate', { count: sync.waitingTicketUpdates })}{' '}
      <DateTime value={late} unknownKey="common.unknown" />
    </SM>
  ) : null;
  const pausedNotice = paused ? (
    <SM data-testid="sync-paused">
      {t('sync.pausedUntil')} <DateTime value={paused} unknownKey="common.unknown" />
    </SM>
  ) : null;
  const retryNow =
    late && canAct && !paused ? (
      <div>
        <Button
          size="small"
          disabled={runner.pending !== null}
          onClick={() =>
            void runner.run({ id: 'retryUpdates', run: () => api.retryTicketUpdates(ticketId) })
          }
        >
          {runner.pending === 'retryUpdates' ? t('common.working') : t('sync.retryNow')}
        </Button>
      </div>
    ) : null;
  const feedback = (
    <ActionFeedbackAlert
      feedback={runner.feedback}
      onRetry={(said) => void runner.run(said.action)}
      onDismiss={runner.dismiss}
    />
  );
  if (failed.length === 0 && late)
    return (
      <Alert type="warning" role="alert" data-testid="sync">
        <Stack>
          <Alert.Title>{t('sync.lateTitle')}</Alert.Title>
          {pausedNotice}
          {feedback}
          {retryNow}
          <Details summary={t('sync.details')}>
            {lateNotice}
            <Alert.Paragraph>{t('sync.lateBody')}</Alert.Paragraph>
          </Details>
        </Stack>
      </Alert>
    );
  // The outcome of a retry stays visible after the list empties, so the agent sees it worked.
  if (failed.length === 0)
    return runner.feedback ? (
      <ActionFeedbackAlert
        feedback={runner.feedback}
        onRetry={(feedback) => void runner.run(feedback.action)}
        onDismiss={runner.dismiss}
      />
    ) : null;
  return (
    <Alert type="warning" role="alert" data-testid="sync">
      <Stack>
        <Alert.Title>{t('sync.alertTitle')}</Alert.Title>
        <ActionFeedbackAlert
          feedback={runner.feedback}
          onRetry={(feedback) => void runner.run(feedback.action)}
          onDismiss={runner.dismiss}
        />
        <Details summary={t('sync.details')}>
          <Alert.Paragraph>{t('sync.alertBody')}</Alert.Paragraph>
          {sync.pendingForwards > 0 ? (
            <SM>{t('sync.pendingLate', { count: sync.pendingForwards })}</SM>
          ) : null}
          {lateNotice}
          {pausedNotice}
          <PlainList>
            {failed.map((forward) => {
              const kind = enumLabel(lookUp, 'sync.kind', forward.kind);
              return (
                <li key={forward.id} data-testid="failed-forward">
                  <SM isBold>{t('sync.forwardKind', { kind })}</SM>
                  <Muted>
                    <DateTime value={forward.failedAt} unknownKey="common.unknown" /> ·{' '}
                    {t('sync.attempts', { count: forward.attempts })}
                  </Muted>
                  <SM>
                    <Breakable>{forward.lastError}</Breakable>
                  </SM>
                  {canAct ? (
                    <Row>
                      <Button
                        size="small"
                        disabled={runner.pending !== null}
                        aria-label={t('sync.retryForwardLabel', { kind })}
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
                  ) : null}
                </li>
              );
            })}
          </PlainList>
        </Details>
      </Stack>
    </Alert>
  );
}

/** The rest of a sync warning, one click away, so the warning itself stays one line. */
function Details({ summary, children }: { summary: string; children: ReactNode }) {
  return (
    <DetailsBox>
      <summary>{summary}</summary>
      <Stack>{children}</Stack>
    </DetailsBox>
  );
}

const DetailsBox = styled.details`
  & > summary {
    cursor: pointer;
    font-size: ${(p) => p.theme.fontSizes.sm};
  }
`;

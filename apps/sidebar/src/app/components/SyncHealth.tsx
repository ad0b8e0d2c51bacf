import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Alert } from '@zendeskgarden/react-notifications';
import { Button } from '@zendeskgarden/react-buttons';
import { getColor } from '@zendeskgarden/react-theming';
import { SM } from '@zendeskgarden/react-typography';
import type { ConnectorApi } from '../api/connector';
import type { TSyncHealth } from '@incident-desk/sidebar-contract';
import { useI18n } from '../hooks/useI18n';
import { useViewer } from '../contexts/viewerContext';
import { enumLabel } from '../lib/labels';
import { ActionFeedbackAlert } from './ActionFeedbackAlert';
import { DateTime } from './DateTime';
import { Breakable, Muted, PlainList, Row, Stack } from './layout';
import { useActionRunner, type ActionSpec } from './useActionRunner';

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
const LATE_AFTER_MS = 2 * 60_000;

/** When the ticket's waiting updates became late, or null while none is. */
function lateSince(sync: TSyncHealth, now: number): string | null {
  if (sync.waitingTicketUpdates === 0 || sync.waitingSince === null) return null;
  const since = Date.parse(sync.waitingSince);
  return Number.isNaN(since) || now - since < LATE_AFTER_MS ? null : sync.waitingSince;
}

type Runner = ReturnType<typeof useActionRunner>;

/** What the last retry said, with its own retry and dismiss. */
function RunnerFeedback({ runner }: { runner: Runner }) {
  return (
    <ActionFeedbackAlert
      feedback={runner.feedback}
      onRetry={(said) => void runner.run(said.action)}
      onDismiss={runner.dismiss}
    />
  );
}

/**
 * Nothing while all is in sync; an alert, with a retry per failed update, when something failed,
 * and a notice when incident changes wait for the ticket longer than they should, with "Retry now"
 * (or, while Zendesk has paused the account's updates, when the next attempt is: a retry cannot
 * bring it forward).
 */
export function SyncHealth({ api, ticketId, sync, onChanged }: Props) {
  const runner = useActionRunner(onChanged);
  const late = lateSince(sync, Date.now());
  const notices = { late, paused: sync.writesPausedUntil, waiting: sync.waitingTicketUpdates };
  if (sync.failedForwards.length === 0 && late)
    return <LateUpdatesAlert api={api} ticketId={ticketId} runner={runner} notices={notices} />;
  // The outcome of a retry stays visible after the list empties, so the agent sees it worked.
  if (sync.failedForwards.length === 0)
    return runner.feedback ? <RunnerFeedback runner={runner} /> : null;
  return (
    <FailedForwardsAlert
      api={api}
      ticketId={ticketId}
      sync={sync}
      runner={runner}
      notices={notices}
    />
  );
}

interface Notices {
  /** Since when the waiting updates are late, or null. */
  late: string | null;
  /** Until when Zendesk paused the account's updates, or null. */
  paused: string | null;
  waiting: number;
}

function LateNotice({ notices }: { notices: Notices }) {
  const { t } = useI18n();
  if (!notices.late) return null;
  return (
    <SM data-testid="sync-late">
      {t('sync.updatesLate', { count: notices.waiting })}{' '}
      <DateTime value={notices.late} unknownKey="common.unknown" />
    </SM>
  );
}

function PausedNotice({ notices }: { notices: Notices }) {
  const { t } = useI18n();
  if (!notices.paused) return null;
  return (
    <SM data-testid="sync-paused">
      {t('sync.pausedUntil')} <DateTime value={notices.paused} unknownKey="common.unknown" />
    </SM>
  );
}

interface AlertProps {
  api: ConnectorApi;
  ticketId: number;
  runner: Runner;
  notices: Notices;
}

/**
 * Late ticket updates, in one compact line with "Retry now" (a box lighter than an Alert, so the
 * line and its retry fit a 320 px panel beside each other); the why one click away.
 */
function LateUpdatesAlert({ api, ticketId, runner, notices }: AlertProps) {
  const { t } = useI18n();
  const { canAct } = useViewer();
  return (
    <CompactWarning role="alert" data-testid="sync">
      <Stack>
        <Row>
          <SM isBold>{t('sync.lateTitle')}</SM>
          {canAct && !notices.paused ? (
            <Button
              size="small"
              disabled={runner.pending !== null}
              onClick={() =>
                void runner.run({
                  id: 'retryUpdates',
                  run: () => api.retryTicketUpdates(ticketId),
                })
              }
            >
              {runner.pending === 'retryUpdates' ? t('common.working') : t('sync.retryNow')}
            </Button>
          ) : null}
        </Row>
        <PausedNotice notices={notices} />
        <RunnerFeedback runner={runner} />
        <Details summary={t('sync.details')}>
          <LateNotice notices={notices} />
          <SM>{t('sync.lateBody')}</SM>
        </Details>
      </Stack>
    </CompactWarning>
  );
}

const CompactWarning = styled.div`
  padding: ${(p) => p.theme.space.xs} ${(p) => p.theme.space.sm};
  border: ${(p) => p.theme.borders.sm}
    ${(p) => getColor({ theme: p.theme, variable: 'border.warning' })};
  border-radius: ${(p) => p.theme.borderRadii.md};
  background: ${(p) => getColor({ theme: p.theme, variable: 'background.warning' })};
  min-width: 0;
`;

/** Retries every failed forward in turn: the first refusal, else the last acknowledgement. */
async function retryEvery(
  api: ConnectorApi,
  ticketId: number,
  forwards: TSyncHealth['failedForwards'],
): ReturnType<ActionSpec['run']> {
  let answer: Awaited<ReturnType<ActionSpec['run']>> | undefined;
  for (const forward of forwards) {
    answer = await api.retryForward(ticketId, forward.id);
    if (!answer.ok) return answer;
  }
  return answer!;
}

/**
 * Incident updates that failed to reach the ticket: one line with "Retry now" (every failed
 * update), and each one, with its own retry, one click away.
 */
function FailedForwardsAlert({
  api,
  ticketId,
  sync,
  runner,
  notices,
}: AlertProps & { sync: TSyncHealth }) {
  const { t } = useI18n();
  const { canAct } = useViewer();
  return (
    <Alert type="warning" role="alert" data-testid="sync">
      <Stack>
        <Row>
          <Alert.Title>{t('sync.alertTitle')}</Alert.Title>
          {canAct ? (
            <Button
              size="small"
              disabled={runner.pending !== null}
              onClick={() =>
                void runner.run({
                  id: 'retryForward',
                  run: () => retryEvery(api, ticketId, sync.failedForwards),
                })
              }
            >
              {runner.pending === 'retryForward' ? t('common.working') : t('sync.retryNow')}
            </Button>
          ) : null}
        </Row>
        <RunnerFeedback runner={runner} />
        <Details summary={t('sync.details')}>
          <Alert.Paragraph>{t('sync.alertBody')}</Alert.Paragraph>
          {sync.pendingForwards > 0 ? (
            <SM>{t('sync.pendingLate', { count: sync.pendingForwards })}</SM>
          ) : null}
          <LateNotice notices={notices} />
          <PausedNotice notices={notices} />
          <PlainList>
            {sync.failedForwards.map((forward) => (
              <FailedForward
                key={forward.id}
                forward={forward}
                runner={runner}
                onRetry={() => api.retryForward(ticketId, forward.id)}
              />
            ))}
          </PlainList>
        </Details>
      </Stack>
    </Alert>
  );
}

function FailedForward({
  forward,
  runner,
  onRetry,
}: {
  forward: TSyncHealth['failedForwards'][number];
  runner: Runner;
  onRetry: ActionSpec['run'];
}) {
  const { t, lookUp } = useI18n();
  const { canAct } = useViewer();
  const kind = enumLabel(lookUp, 'sync.kind', forward.kind);
  return (
    <li data-testid="failed-forward">
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
            onClick={() => void runner.run({ id: 'retryForward', run: onRetry })}
          >
            {t('common.retry')}
          </Button>
        </Row>
      ) : null}
    </li>
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

import { useId, useState, type ReactNode } from 'react';
import { Tag } from '@zendeskgarden/react-tags';
import { MD, SM } from '@zendeskgarden/react-typography';
import type { ConnectorApi } from '../api/connector';
import type { TDetailedIncident, TUsage } from '../api/incidentTypes';
import type {
  TAnalystRequest,
  TRequestedAction,
  TSidebarTicket,
  TUnavailablePart,
} from '@incident-desk/sidebar-contract';
import { useI18n } from '../hooks/useI18n';
import { useViewer } from '../contexts/viewerContext';
import type { Translate } from '../lib/i18n';
import { humanize } from '../lib/labels';
import { newestFirst } from '../lib/newestFirst';
import {
  ACTOR_HUES,
  isKnownStatus,
  isMarkedSafe,
  pendingRequest,
  planForStatus,
  type TIncidentActionId,
} from '../lib/statusActions';
import { ActionConfirmDialog } from './ActionConfirmDialog';
import { ActionFeedbackAlert } from './ActionFeedbackAlert';
import { ConfirmActionButton } from './ConfirmActionButton';
import { CopyButton } from './CopyButton';
import { DateTime } from './DateTime';
import { DefangedProse, DefangedText } from './DefangedText';
import { subjectOf } from './IncidentOverview';
import { MoreActionsMenu } from './MoreActionsMenu';
import { Breakable, Card, Muted, Row, Stack } from './layout';
import { useActionRunner, type ActionSpec } from './useActionRunner';
import { unavailableText } from '../lib/unavailableText';

interface Props {
  api: ConnectorApi;
  ticket: TSidebarTicket;
  /** null when the service could not be read this time: the card keeps the ticket's context. */
  incident: TDetailedIncident | null;
  incidentUnavailable?: TUnavailablePart;
  usage: TUsage | null;
  /** The analyst's request of the newest action_required event, as the connector recorded it. */
  analystRequest?: TAnalystRequest | null;
  /** The action last asked for, with the status the incident had right after it. */
  requestedAction?: TRequestedAction | null;
  /** Sync problems (late ticket updates, failed forwards): compact, after the status and its action. */
  problems?: ReactNode;
  onChanged: () => void;
}

function actionSpec(
  api: ConnectorApi,
  ticketId: number,
  id: TIncidentActionId,
): ActionSpec<TIncidentActionId> {
  if (id === 'approve') return { id, run: () => api.approveTakedown(ticketId) };
  return { id, run: () => api.incidentAction(ticketId, id) };
}

/**
 * The approve button and its confirmation say the same about what approving costs, and why it
 * cannot run when no credit is left.
 */
function approveTerms(usage: TUsage | null, t: Translate) {
  const credits = usage?.remainingCredits;
  if (credits === 'unlimited' || credits === null)
    return {
      label: t('actions.approve.button'),
      confirmBody: t('actions.approve.confirmBodyNoCredits'),
    };
  if (typeof credits !== 'number')
    return {
      label: t('actions.approve.button'),
      confirmBody: t('actions.approve.confirmBody'),
    };
  if (credits <= 0)
    return { label: t('actions.approve.button'), disabledReason: t('card.noCreditsReason') };
  return {
    label: t('card.approve', { count: credits }),
    confirmBody: t('actions.approve.confirmBodyCredits', { count: credits }),
  };
}

/** What the analyst asked: the event's request, else the newest history entry. */
function analystRequestText(
  incident: TDetailedIncident,
  recorded: TAnalystRequest | null | undefined,
): string | undefined {
  if (recorded?.text) return recorded.text;
  return newestFirst(incident.history, (entry) => entry.timestamp)[0]?.message;
}

/** The status as the agent should read it: "Marked safe" rather than only "Closed". */
function statusWords(t: Translate, status: string, markedSafe: boolean) {
  if (markedSafe)
    return { label: t('card.markedSafe.label'), meaning: t('card.markedSafe.meaning') };
  if (!isKnownStatus(status)) return { label: humanize(status), meaning: t('status.unknown') };
  return { label: t(`status.${status}.label`), meaning: t(`status.${status}.meaning`) };
}

/** What the agent must know and do now: status, what is happening, and the one action that fits. */
export function StatusCard({
  api,
  ticket,
  incident,
  incidentUnavailable,
  usage,
  analystRequest,
  requestedAction = null,
  problems,
  onChanged,
}: Props) {
  const { t } = useI18n();
  const { canAct } = useViewer();
  const status = incident?.status ?? '';
  const runner = useActionRunner(onChanged, status);
  const [confirming, setConfirming] = useState<TIncidentActionId | null>(null);
  const reasonId = useId();
  const pending = pendingRequest(status, requestedAction);
  const plan = planForStatus(status, pending);
  const threat = (incident && subjectOf(incident)) ?? ticket.threat;
  const incidentId = ticket.incidentId ?? incident?.id;
  const approve = plan.primary === 'approve' ? approveTerms(usage, t) : null;
  const words = statusWords(t, status, isMarkedSafe(status, requestedAction));
  const actor = t(`card.actor.${plan.actor}`);
  const request =
    incident?.status === 'action_required'
      ? analystRequestText(incident, analystRequest)
      : undefined;

  return (
    <Card aria-label={t('card.label')} data-testid="status-card">
      {incident ? (
        <Stack data-testid="status">
          <Row>
            <Tag hue={ACTOR_HUES[plan.actor]} size="large" data-actor={plan.actor}>
              <span>{words.label}</span>
            </Tag>
            {/* "Closed · Closed" says nothing twice */}
            {actor.toLowerCase() === words.label.toLowerCase() ? null : (
              <Muted data-testid="actor">{actor}</Muted>
            )}
          </Row>
          <SM data-testid="status-sentence">{words.meaning}</SM>
          {pending && requestedAction ? (
            <Row data-testid="requested">
              <Tag hue="blue">
                <span>{t(`card.requested.${pending}`)}</span>
              </Tag>
              <Muted>
                <DateTime value={requestedAction.at} />
              </Muted>
            </Row>
          ) : null}
        </Stack>
      ) : (
        <SM role="alert" data-testid="incident-unavailable">
          {t('card.incidentUnavailable')} {unavailableText(t, incidentUnavailable)}
        </SM>
      )}
      {incident?.status === 'action_required' ? (
        <Stack data-testid="action-required">
          <MD tag="h2" isBold>
            {t('card.actionRequired.reasonTitle')}
          </MD>
          <SM data-testid="service-reason">
            {request ? <DefangedProse text={request} /> : t('card.actionRequired.noReason')}
          </SM>
          <MD tag="h3" isBold>
            {t('card.actionRequired.howToTitle')}
          </MD>
          <SM data-testid="action-required-how">{t('card.actionRequired.howTo')}</SM>
        </Stack>
      ) : null}
      {threat ? (
        <Stack data-testid="subject">
          <Muted>{t('overview.subject')}</Muted>
          <Row>
            <DefangedText value={threat} />
            <CopyButton value={threat} label={t('overview.copySubject')} />
          </Row>
        </Stack>
      ) : null}
      {incidentId ? (
        <Muted data-testid="incident-id">
          {t('card.incidentIdLabel')} <Breakable>{incidentId}</Breakable>
        </Muted>
      ) : null}
      {incident && !canAct ? (
        // nothing offered that the connector would refuse (403 read_only): one quiet line instead
        <Muted data-testid="read-only">{t('card.readOnly')}</Muted>
      ) : null}
      {incident && canAct ? (
        <Stack data-testid="actions">
          <ActionFeedbackAlert
            feedback={runner.feedback}
            onRetry={(feedback) => void runner.run(feedback.action)}
            onDismiss={runner.dismiss}
          />
          {plan.primary || plan.more.length > 0 ? (
            <Row>
              {plan.primary ? (
                // secondary style: no primary button on the app's first load (Zendesk's guidance)
                <ConfirmActionButton
                  runner={runner}
                  action={actionSpec(api, ticket.id, plan.primary)}
                  label={approve?.label}
                  confirmBody={approve?.confirmBody}
                  disabledReason={approve?.disabledReason}
                  describedBy={approve?.disabledReason ? reasonId : undefined}
                />
              ) : null}
              <MoreActionsMenu
                actions={plan.more}
                disabled={runner.pending !== null}
                onSelect={setConfirming}
              />
            </Row>
          ) : null}
          {approve?.disabledReason ? (
            <SM id={reasonId} data-testid="primary-disabled-reason">
              {approve.disabledReason}
            </SM>
          ) : null}
          {confirming ? (
            <ActionConfirmDialog
              action={actionSpec(api, ticket.id, confirming)}
              runner={runner}
              isDanger={confirming === 'safe'}
              onClose={() => setConfirming(null)}
            />
          ) : null}
        </Stack>
      ) : null}
      {/* below the status and its action: a sync problem never pushes them off the first screen */}
      {problems}
    </Card>
  );
}

import { useId, useState } from 'react';
import styled from 'styled-components';
import { getColor } from '@zendeskgarden/react-theming';
import { Tag } from '@zendeskgarden/react-tags';
import { MD, SM } from '@zendeskgarden/react-typography';
import type { ConnectorApi } from '../api/connector';
import type { TDetailedIncident, TUsage } from '../api/incidentTypes';
import type { TSidebarTicket, TUnavailablePart } from '@incident-desk/sidebar-contract';
import { useI18n } from '../hooks/useI18n';
import { humanize } from '../lib/labels';
import { newestFirst } from '../lib/newestFirst';
import { ACTOR_HUES, planForStatus, type TIncidentActionId } from '../lib/statusActions';
import { ActionConfirmDialog } from './ActionConfirmDialog';
import { ActionFeedbackAlert } from './ActionFeedbackAlert';
import { ConfirmActionButton } from './ConfirmActionButton';
import { CopyButton } from './CopyButton';
import { DefangedProse, DefangedText } from './DefangedText';
import { subjectOf } from './IncidentOverview';
import { MoreActionsMenu } from './MoreActionsMenu';
import { Breakable, Muted, Row, Stack } from './layout';
import { useActionRunner, type ActionSpec } from './useActionRunner';
import { unavailableText } from '../lib/unavailableText';

const Card = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${(p) => p.theme.space.sm};
  padding: ${(p) => p.theme.space.sm};
  border: ${(p) => p.theme.borders.sm}
    ${(p) => getColor({ theme: p.theme, variable: 'border.default' })};
  border-radius: ${(p) => p.theme.borderRadii.md};
  min-width: 0;
`;

interface Props {
  api: ConnectorApi;
  ticket: TSidebarTicket;
  /** null when the service could not be read this time: the card keeps the ticket's context. */
  incident: TDetailedIncident | null;
  incidentUnavailable?: TUnavailablePart;
  usage: TUsage | null;
  onChanged: () => void;
}

function actionSpec(api: ConnectorApi, ticketId: number, id: TIncidentActionId): ActionSpec {
  if (id === 'approve') return { id, run: () => api.approveTakedown(ticketId) };
  return { id, run: () => api.incidentAction(ticketId, id) };
}

/** The approve button says what it costs, and why it cannot run when no credit is left. */
function approveTerms(usage: TUsage | null, t: ReturnType<typeof useI18n>['t']) {
  const credits = usage?.remainingCredits;
  if (typeof credits !== 'number') return { label: t('actions.approve.button') };
  if (credits <= 0)
    return { label: t('actions.approve.button'), disabledReason: t('card.noCreditsReason') };
  return { label: t('card.approve', { count: credits }) };
}

/** What the agent must know and do now: status, what is happening, and the one action that fits. */
export function StatusCard({
  api,
  ticket,
  incident,
  incidentUnavailable,
  usage,
  onChanged,
}: Props) {
  const { t } = useI18n();
  const runner = useActionRunner(onChanged);
  const [confirming, setConfirming] = useState<TIncidentActionId | null>(null);
  const reasonId = useId();
  const plan = planForStatus(incident?.status ?? '');
  const threat = (incident && subjectOf(incident)) ?? ticket.threat;
  const incidentId = ticket.incidentId ?? incident?.id;
  const approve = plan.primary === 'approve' ? approveTerms(usage, t) : null;
  const serviceReason =
    incident?.status === 'action_required'
      ? newestFirst(incident.history, (entry) => entry.timestamp)[0]?.message
      : undefined;

  return (
    <Card aria-label={t('card.label')} data-testid="status-card">
      {incident ? (
        <Stack data-testid="status">
          <Row>
            <Tag hue={ACTOR_HUES[plan.actor]} size="large" data-actor={plan.actor}>
              <span>
                {plan.known ? t(`status.${incident.status}.label`) : humanize(incident.status)}
              </span>
            </Tag>
            <Muted data-testid="actor">{t(`card.actor.${plan.actor}`)}</Muted>
          </Row>
          <SM data-testid="status-sentence">
            {plan.known ? t(`status.${incident.status}.meaning`) : t('status.unknown')}
          </SM>
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
            {serviceReason ? (
              <DefangedProse text={serviceReason} />
            ) : (
              t('card.actionRequired.noReason')
            )}
          </SM>
          <SM>{t('card.actionRequired.howTo')}</SM>
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
          {t('overview.incidentId')}: <Breakable>{incidentId}</Breakable>
        </Muted>
      ) : null}
      {incident ? (
        <Stack data-testid="actions">
          <ActionFeedbackAlert
            feedback={runner.feedback}
            onRetry={(feedback) => void runner.run(feedback.action)}
            onDismiss={runner.dismiss}
          />
          {plan.primary || plan.more.length > 0 ? (
            <Row>
              {plan.primary ? (
                <ConfirmActionButton
                  isPrimary
                  runner={runner}
                  action={actionSpec(api, ticket.id, plan.primary)}
                  label={approve?.label}
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
    </Card>
  );
}

import { useId, useState } from 'react';
import { SM } from '@zendeskgarden/react-typography';
import type { ConnectorApi } from '../api/connector';
import type { TUsage } from '../api/incidentTypes';
import type { TRequestedAction } from '@incident-desk/sidebar-contract';
import { useI18n } from '../hooks/useI18n';
import type { Translate } from '../lib/i18n';
import { pendingRequest, planForStatus, type TIncidentActionId } from '../lib/statusActions';
import { ActionConfirmDialog } from './ActionConfirmDialog';
import { ActionFeedbackAlert } from './ActionFeedbackAlert';
import { ConfirmActionButton } from './ConfirmActionButton';
import { MoreActionsMenu } from './MoreActionsMenu';
import { Row, Stack } from './layout';
import { useActionRunner, type ActionSpec } from './useActionRunner';

interface Props {
  api: ConnectorApi;
  ticketId: number;
  status: string;
  usage: TUsage | null;
  requestedAction: TRequestedAction | null;
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

/**
 * The status card's actions: the one that fits the status as a button, the others in "More
 * actions", each confirmed in a dialog, with what the last one said above them.
 */
export function StatusCardActions({
  api,
  ticketId,
  status,
  usage,
  requestedAction,
  onChanged,
}: Props) {
  const { t } = useI18n();
  const runner = useActionRunner(onChanged, status);
  const [confirming, setConfirming] = useState<TIncidentActionId | null>(null);
  const reasonId = useId();
  const plan = planForStatus(status, pendingRequest(status, requestedAction));
  const approve = plan.primary === 'approve' ? approveTerms(usage, t) : null;
  return (
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
              action={actionSpec(api, ticketId, plan.primary)}
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
          action={actionSpec(api, ticketId, confirming)}
          runner={runner}
          isDanger={confirming === 'safe'}
          onClose={() => setConfirming(null)}
        />
      ) : null}
    </Stack>
  );
}

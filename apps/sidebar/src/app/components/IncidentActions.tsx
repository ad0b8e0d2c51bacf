import type { ConnectorApi } from '../api/connector';
import type { TDetailedIncident } from '../api/incidentTypes';
import { useI18n } from '../hooks/useI18n';
import { ActionFeedbackAlert } from './ActionFeedbackAlert';
import { ConfirmActionButton } from './ConfirmActionButton';
import { Row, Section } from './layout';
import { useActionRunner } from './useActionRunner';

interface Props {
  api: ConnectorApi;
  ticketId: number;
  incident: TDetailedIncident;
  agentEmail: string;
  onChanged: () => void;
}

export function IncidentActions({ api, ticketId, incident, agentEmail, onChanged }: Props) {
  const { t } = useI18n();
  const runner = useActionRunner(onChanged);
  const awaitingApproval = incident.status === 'approval_required';
  return (
    <Section title={t('actions.title')} testId="actions">
      <ActionFeedbackAlert
        feedback={runner.feedback}
        onRetry={(feedback) => void runner.run(feedback.action)}
        onDismiss={runner.dismiss}
      />
      <Row>
        {awaitingApproval ? (
          <ConfirmActionButton
            isPrimary
            runner={runner}
            action={{ id: 'approve', run: () => api.approveTakedown(ticketId, agentEmail) }}
          />
        ) : null}
        <ConfirmActionButton
          runner={runner}
          action={{ id: 'takedown', run: () => api.incidentAction(ticketId, 'takedown') }}
        />
        <ConfirmActionButton
          runner={runner}
          action={{ id: 'monitor', run: () => api.incidentAction(ticketId, 'monitor') }}
        />
        <ConfirmActionButton
          isDanger
          runner={runner}
          action={{ id: 'safe', run: () => api.incidentAction(ticketId, 'safe') }}
        />
      </Row>
    </Section>
  );
}

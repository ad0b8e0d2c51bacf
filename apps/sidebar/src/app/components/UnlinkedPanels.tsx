import { Button } from '@zendeskgarden/react-buttons';
import { SM } from '@zendeskgarden/react-typography';
import type { ConnectorApi } from '../api/connector';
import type { TSidebarTicket } from '@incident-desk/sidebar-contract';
import { useI18n } from '../hooks/useI18n';
import { ActionFeedbackAlert } from './ActionFeedbackAlert';
import { ConfirmActionButton } from './ConfirmActionButton';
import { DefangedText } from './DefangedText';
import { Breakable, Muted, Row, Section, Stack } from './layout';
import { useActionRunner } from './useActionRunner';

interface Props {
  api: ConnectorApi;
  ticket: TSidebarTicket;
  onChanged: () => void;
}

/** The ticket's Threat, defanged, under its label; nothing when none is set. */
function ThreatLine({ threat }: { threat: string | null | undefined }) {
  const { t } = useI18n();
  if (!threat) return null;
  return (
    <Stack>
      <SM isBold>{t('unlinked.threat')}</SM>
      <DefangedText value={threat} />
    </Stack>
  );
}

/** linkState unlinked: a Threat is set but no incident yet; the agent can report it. */
export function UnlinkedPanel({ api, ticket, onChanged }: Props) {
  const { t } = useI18n();
  const runner = useActionRunner(onChanged);
  return (
    <Section title={t('unlinked.title')} testId="unlinked">
      <SM>{t('unlinked.body')}</SM>
      <ThreatLine threat={ticket.threat} />
      <Muted>{t('unlinked.savedValueNote')}</Muted>
      <ActionFeedbackAlert
        feedback={runner.feedback}
        onRetry={(feedback) => void runner.run(feedback.action)}
        onDismiss={runner.dismiss}
      />
      <Row>
        <ConfirmActionButton
          isPrimary
          runner={runner}
          action={{ id: 'reportTakedown', run: () => api.reportThreat(ticket.id, 'takedown') }}
        />
        <ConfirmActionButton
          runner={runner}
          action={{ id: 'reportMonitor', run: () => api.reportThreat(ticket.id, 'monitor') }}
        />
      </Row>
    </Section>
  );
}

/** linkState failed (tag incident_unlinked): why, and retry linking when a retry can help. */
export function LinkFailedPanel({ api, ticket, onChanged }: Props) {
  const { t } = useI18n();
  const runner = useActionRunner(onChanged);
  const retry = { id: 'retryLink', run: () => api.retryLink(ticket.id) };
  // The service answered that the threat is already an incident: reporting again fails the same way.
  const duplicate = ticket.unlinkedCause === 'duplicate';
  return (
    <Section title={t('linkFailed.title')} testId="link-failed">
      <SM>{t('linkFailed.body')}</SM>
      {ticket.unlinkedCause ? (
        <Stack>
          <SM isBold>{t('linkFailed.reason')}</SM>
          <SM data-testid="unlinked-cause">{t(`linkFailed.cause.${ticket.unlinkedCause}`)}</SM>
        </Stack>
      ) : null}
      {ticket.unlinkedReason ? (
        <Stack>
          {/* the connector's own words (English), kept as the detail for support */}
          <SM isBold>
            {ticket.unlinkedCause ? t('linkFailed.serviceAnswer') : t('linkFailed.reason')}
          </SM>
          <Muted data-testid="unlinked-reason">
            <Breakable>{ticket.unlinkedReason}</Breakable>
          </Muted>
        </Stack>
      ) : null}
      <ThreatLine threat={ticket.threat} />
      {duplicate ? <SM data-testid="duplicate-explained">{t('linkFailed.duplicate')}</SM> : null}
      <ActionFeedbackAlert
        feedback={runner.feedback}
        onRetry={(feedback) => void runner.run(feedback.action)}
        onDismiss={runner.dismiss}
      />
      {duplicate ? null : (
        <Row>
          <Button
            size="small"
            disabled={runner.pending !== null}
            onClick={() => void runner.run(retry)}
          >
            {runner.pending ? t('common.working') : t('actions.retryLink.button')}
          </Button>
        </Row>
      )}
    </Section>
  );
}

/** linkState none: nothing to show yet; explain how to start. */
export function NoThreatPanel() {
  const { t } = useI18n();
  return (
    <Section title={t('none.title')} testId="no-threat">
      <SM>{t('none.body')}</SM>
    </Section>
  );
}

import { useId } from 'react';
import { Button } from '@zendeskgarden/react-buttons';
import { MD, SM } from '@zendeskgarden/react-typography';
import type { ConnectorApi } from '../api/connector';
import type { ThreatsApi } from '../api/threatsApi';
import type { TSidebarTicket } from '@incident-desk/sidebar-contract';
import { useI18n } from '../hooks/useI18n';
import { useViewer } from '../contexts/viewerContext';
import { useThreatsApi } from '../hooks/useThreatsApi';
import { ActionFeedbackAlert } from './ActionFeedbackAlert';
import { DefangedText } from './DefangedText';
import { DuplicateNotice, useDuplicateCheck } from './DuplicateCheck';
import { Breakable, Card, Muted, Row, Stack } from './layout';
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

/**
 * linkState failed (tag incident_unlinked): why, and what can still be done. A report the service
 * refused as a duplicate cannot be retried: the incident it already has is offered instead
 * ("Follow incident …", or the ticket that follows it). Any other failure can be retried.
 */
export function LinkFailedCard({ api, ticket, onChanged }: Props) {
  const { t } = useI18n();
  const { canAct } = useViewer();
  const runner = useActionRunner(onChanged);
  const threatsApi = useThreatsApi();
  const titleId = useId();
  const retry = { id: 'retryLink' as const, run: () => api.retryLink(ticket.id) };
  const duplicate = ticket.unlinkedCause === 'duplicate';
  return (
    <Card aria-labelledby={titleId} data-testid="link-failed">
      <MD tag="h2" isBold id={titleId}>
        {t('linkFailed.title')}
      </MD>
      <SM>{t('linkFailed.body')}</SM>
      {ticket.unlinkedCause ? (
        <Stack>
          <SM isBold>{t('linkFailed.reason')}</SM>
          <SM data-testid="unlinked-cause">{t(`linkFailed.cause.${ticket.unlinkedCause}`)}</SM>
        </Stack>
      ) : null}
      {/* the connector's own words (English), kept for support; a duplicate's ("answered 409") says nothing more */}
      {ticket.unlinkedReason && !duplicate ? (
        <Stack>
          <SM isBold>
            {ticket.unlinkedCause ? t('linkFailed.serviceAnswer') : t('linkFailed.reason')}
          </SM>
          <Muted data-testid="unlinked-reason">
            <Breakable>{ticket.unlinkedReason}</Breakable>
          </Muted>
        </Stack>
      ) : null}
      <ThreatLine threat={ticket.threat} />
      <ActionFeedbackAlert
        feedback={runner.feedback}
        onRetry={(feedback) => void runner.run(feedback.action)}
        onDismiss={runner.dismiss}
      />
      {duplicate ? (
        threatsApi && ticket.threat ? (
          <KnownDuplicate
            api={threatsApi}
            ticketId={ticket.id}
            threat={ticket.threat}
            runner={runner}
          />
        ) : (
          <SM data-testid="duplicate-explained">{t('linkFailed.duplicateUnknown')}</SM>
        )
      ) : !canAct ? (
        <Muted data-testid="read-only">{t('errors.read_only')}</Muted>
      ) : (
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
    </Card>
  );
}

/** The incident the service already has for the Threat field: follow it, or go to its ticket. */
function KnownDuplicate({
  api,
  ticketId,
  threat,
  runner,
}: {
  api: ThreatsApi;
  ticketId: number;
  threat: string;
  runner: ReturnType<typeof useActionRunner>;
}) {
  const { t } = useI18n();
  const check = useDuplicateCheck(api, ticketId, threat);
  if (check.state === 'checking') return <Muted role="status">{t('duplicates.checking')}</Muted>;
  if (check.state !== 'found')
    return <SM data-testid="duplicate-explained">{t('linkFailed.duplicateUnknown')}</SM>;
  return (
    <DuplicateNotice
      duplicates={check.duplicates}
      pending={runner.pending !== null}
      onFollow={() =>
        void runner.run({ id: 'follow', run: () => api.linkExisting(ticketId, threat) })
      }
    />
  );
}

import type { ReactNode } from 'react';
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
} from '../lib/statusActions';
import { CopyButton } from './CopyButton';
import { DateTime } from './DateTime';
import { DefangedProse, DefangedText } from './DefangedText';
import { subjectOf } from './IncidentOverview';
import { Breakable, Card, Muted, Row, Stack } from './layout';
import { StatusCardActions } from './StatusCardActions';
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
  const threat = (incident && subjectOf(incident)) ?? ticket.threat;
  const incidentId = ticket.incidentId ?? incident?.id;

  return (
    <Card aria-label={t('card.label')} data-testid="status-card">
      {incident ? (
        <StatusHeadline status={incident.status} requestedAction={requestedAction} />
      ) : (
        <SM role="alert" data-testid="incident-unavailable">
          {t('card.incidentUnavailable')} {unavailableText(t, incidentUnavailable)}
        </SM>
      )}
      {incident && !canAct ? (
        // nothing offered that the connector would refuse (403 read_only): one quiet line instead
        <Muted data-testid="read-only">{t('card.readOnly')}</Muted>
      ) : null}
      {incident && canAct ? (
        <StatusCardActions
          api={api}
          ticketId={ticket.id}
          status={incident.status}
          usage={usage}
          requestedAction={requestedAction}
          onChanged={onChanged}
        />
      ) : null}
      {/* below the status and its action: a sync problem never pushes them off the first screen */}
      {problems}
      {incident?.status === 'action_required' ? (
        <ActionRequired request={analystRequestText(incident, analystRequest)} />
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
    </Card>
  );
}

/** The status, who acts next, what it means, and the action asked for while it is pending. */
function StatusHeadline({
  status,
  requestedAction,
}: {
  status: string;
  requestedAction: TRequestedAction | null;
}) {
  const { t } = useI18n();
  const pending = pendingRequest(status, requestedAction);
  const plan = planForStatus(status, pending);
  const words = statusWords(t, status, isMarkedSafe(status, requestedAction));
  const actor = t(`card.actor.${plan.actor}`);
  return (
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
  );
}

/** What the analyst asks of the client, and how a public reply answers it. */
function ActionRequired({ request }: { request: string | undefined }) {
  const { t } = useI18n();
  return (
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
  );
}

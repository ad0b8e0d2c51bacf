import { useEffect, useState } from 'react';
import { Alert } from '@zendeskgarden/react-notifications';
import { Button } from '@zendeskgarden/react-buttons';
import { SM } from '@zendeskgarden/react-typography';
import type { TThreatDuplicates, ThreatsApi } from '../api/threatsApi';
import { useClient } from '../hooks/useClient';
import { useI18n } from '../hooks/useI18n';
import type { Translate } from '../lib/i18n';
import { DefangedText } from './DefangedText';
import { Row, Stack } from './layout';

/** Whether the account already has an incident for the threat (linked here or at the service). */
function hasDuplicates(duplicates: TThreatDuplicates): boolean {
  return (
    duplicates.linked.length > 0 ||
    (duplicates.service.state === 'searched' && duplicates.service.incidents.length > 0)
  );
}

/** Who follows an incident: a ticket the agent may open, one they may not, or none yet. */
type Follower = { ticketId: number } | 'hidden' | null;

interface KnownIncident {
  key: string;
  /** The reference people know (inc_…); the service's own id is never shown. */
  reference: string | null;
  follower: Follower;
}

function knownIncidents(duplicates: TThreatDuplicates): KnownIncident[] {
  const linked = duplicates.linked.map((link) => ({
    key: link.incidentId,
    reference: link.reference,
    follower: link.ticketId === null ? ('hidden' as const) : { ticketId: link.ticketId },
  }));
  const atService = duplicates.service.state === 'searched' ? duplicates.service.incidents : [];
  const onlyAtService = atService
    .filter((found) => !duplicates.linked.some((link) => link.incidentId === found.incidentId))
    .map((found) => ({
      key: found.incidentId,
      reference: found.reference,
      follower:
        found.linkedTicketId !== null
          ? { ticketId: found.linkedTicketId }
          : found.followed
            ? ('hidden' as const)
            : null,
    }));
  return [...linked, ...onlyAtService];
}

/**
 * The incident this ticket can follow instead of a new report: the connector links the first
 * incident its search finds, and only when no ticket follows it (one ticket per incident).
 */
function followable(duplicates: TThreatDuplicates): KnownIncident | null {
  if (duplicates.linked.length > 0 || duplicates.service.state !== 'searched') return null;
  const first = duplicates.service.incidents[0];
  if (!first || first.followed || first.linkedTicketId !== null) return null;
  return { key: first.incidentId, reference: first.reference, follower: null };
}

function incidentLine(t: Translate, { reference, follower }: KnownIncident): string {
  const incident = reference ? t('duplicates.incident', { reference }) : t('duplicates.anIncident');
  if (follower === null) return t('duplicates.unfollowed', { incident });
  if (follower === 'hidden') return t('duplicates.followedByHidden', { incident });
  return t('duplicates.followedBy', { incident, ticketId: follower.ticketId });
}

interface NoticeProps {
  duplicates: TThreatDuplicates;
  pending: boolean;
  /** Makes this ticket follow the incident no ticket follows yet (link-existing). */
  onFollow: () => void;
  /** Absent where reporting again cannot help (the service refused the report as a duplicate). */
  onReportAnyway?: () => void;
}

/**
 * The account's incident for the threat, as Zendesk's Jira integration shows a linked issue: its
 * reference, the ticket that follows it (with a way there) and, when no ticket does, "Follow
 * incident …" before any new report. Every value is text.
 */
export function DuplicateNotice({ duplicates, pending, onFollow, onReportAnyway }: NoticeProps) {
  const { t } = useI18n();
  const client = useClient();
  const incidents = knownIncidents(duplicates);
  const target = followable(duplicates);
  const hiddenOnly = incidents.every((incident) => incident.follower === 'hidden');
  const openTicket = (ticketId: number) =>
    void client.invoke('routeTo', 'ticket', ticketId).catch(() => undefined);
  return (
    <Alert type="info" data-testid="duplicate-notice">
      <Stack>
        <Alert.Title>{t('duplicates.title')}</Alert.Title>
        <DefangedText value={duplicates.display} />
        {incidents.map((incident) => (
          <Row key={incident.key} data-testid="duplicate-incident">
            <SM>{incidentLine(t, incident)}</SM>
            {incident.follower !== null && incident.follower !== 'hidden' ? (
              <Button
                size="small"
                isLink
                onClick={() => openTicket((incident.follower as { ticketId: number }).ticketId)}
              >
                {t('duplicates.openTicket', { ticketId: incident.follower.ticketId })}
              </Button>
            ) : null}
          </Row>
        ))}
        {target ? (
          <SM>{t('duplicates.followExplained')}</SM>
        ) : (
          <SM>
            {hiddenOnly
              ? t('duplicates.followedElsewhereHidden')
              : t('duplicates.followedElsewhere')}
          </SM>
        )}
        <Row>
          {target ? (
            <Button size="small" disabled={pending} onClick={onFollow}>
              {pending
                ? t('common.working')
                : target.reference
                  ? t('duplicates.follow', { reference: target.reference })
                  : t('duplicates.followNoReference')}
            </Button>
          ) : null}
          {onReportAnyway ? (
            <Button size="small" isBasic disabled={pending} onClick={onReportAnyway}>
              {t('duplicates.reportAnyway')}
            </Button>
          ) : null}
        </Row>
      </Stack>
    </Alert>
  );
}

export type DuplicateCheck =
  | { state: 'checking' }
  | { state: 'none' }
  | { state: 'found'; duplicates: TThreatDuplicates }
  /** The check could not answer: a report is still possible, knowing that. */
  | { state: 'unchecked' };

/** Whether a threat of this ticket is already an incident, asked as soon as it is shown. */
export function useDuplicateCheck(
  api: ThreatsApi,
  ticketId: number,
  value: string | null,
): DuplicateCheck {
  const [check, setCheck] = useState<{ value: string; result: DuplicateCheck } | null>(null);
  useEffect(() => {
    if (value === null) return;
    let live = true;
    void api.findDuplicates(ticketId, value).then((result) => {
      if (!live) return;
      const answer: DuplicateCheck = !result.ok
        ? { state: 'unchecked' }
        : hasDuplicates(result.value)
          ? { state: 'found', duplicates: result.value }
          : { state: 'none' };
      setCheck({ value, result: answer });
    });
    return () => {
      live = false;
    };
  }, [api, ticketId, value]);
  return check && check.value === value ? check.result : { state: 'checking' };
}

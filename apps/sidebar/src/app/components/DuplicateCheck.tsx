import { useEffect, useState } from 'react';
import { Alert } from '@zendeskgarden/react-notifications';
import { Button } from '@zendeskgarden/react-buttons';
import { SM } from '@zendeskgarden/react-typography';
import type { TThreatDuplicates, ThreatsApi } from '../api/threatsApi';
import { useClient } from '../hooks/useClient';
import { useI18n } from '../hooks/useI18n';
import { DefangedText } from './DefangedText';
import { Row, Stack } from './layout';

/** Whether the account already has an incident for the threat (linked here or at the service). */
export function hasDuplicates(duplicates: TThreatDuplicates): boolean {
  return (
    duplicates.linked.length > 0 ||
    (duplicates.service.state === 'searched' && duplicates.service.incidents.length > 0)
  );
}

interface NoticeProps {
  duplicates: TThreatDuplicates;
  pending: boolean;
  onLink: () => void;
  /** Absent where the report buttons are already beside the notice. */
  onReportAnyway?: () => void;
}

/**
 * "Already incident X, linked to ticket #Y" (with a way to that ticket) or "found at the incident
 * service", and the choice: link this ticket instead, or report anyway. Every value is text.
 */
export function DuplicateNotice({ duplicates, pending, onLink, onReportAnyway }: NoticeProps) {
  const { t } = useI18n();
  const client = useClient();
  const atService = duplicates.service.state === 'searched' ? duplicates.service.incidents : [];
  // only an incident no ticket follows can be linked here: one ticket follows an incident
  const linkable = atService.some(
    (found) =>
      found.linkedTicketId === null &&
      !duplicates.linked.some((link) => link.incidentId === found.incidentId),
  );
  const openTicket = (ticketId: number) =>
    void client.invoke('routeTo', 'ticket', ticketId).catch(() => undefined);
  return (
    <Alert type="warning" data-testid="duplicate-notice">
      <Stack>
        <Alert.Title>{t('duplicates.title')}</Alert.Title>
        <DefangedText value={duplicates.display} />
        {duplicates.linked.map((link) => (
          <Row key={`${link.incidentId}:${link.ticketId}`} data-testid="duplicate-linked">
            <SM>
              {t('duplicates.linked', { incidentId: link.incidentId, ticketId: link.ticketId })}
            </SM>
            <Button size="small" isLink onClick={() => openTicket(link.ticketId)}>
              {t('duplicates.openTicket', { ticketId: link.ticketId })}
            </Button>
          </Row>
        ))}
        {atService
          .filter((found) => !duplicates.linked.some((l) => l.incidentId === found.incidentId))
          .map((found) => (
            <Row key={found.incidentId} data-testid="duplicate-service">
              <SM>
                {found.linkedTicketId === null
                  ? t('duplicates.atService', { incidentId: found.incidentId })
                  : t('duplicates.linked', {
                      incidentId: found.incidentId,
                      ticketId: found.linkedTicketId,
                    })}
              </SM>
              {found.linkedTicketId === null ? null : (
                <Button
                  size="small"
                  isLink
                  onClick={() => openTicket(found.linkedTicketId as number)}
                >
                  {t('duplicates.openTicket', { ticketId: found.linkedTicketId })}
                </Button>
              )}
            </Row>
          ))}
        {linkable ? null : <SM>{t('duplicates.followedElsewhere')}</SM>}
        <Row>
          {linkable ? (
            <Button size="small" disabled={pending} onClick={onLink}>
              {pending ? t('common.working') : t('duplicates.linkInstead')}
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

interface CheckProps {
  api: ThreatsApi;
  ticketId: number;
  /** The saved Threat field value. */
  value: string;
  onLink: (value: string) => void;
  pending: boolean;
}

/** The saved Threat field, checked for duplicates as soon as it is shown (issue 18). */
export function SavedThreatDuplicateCheck({ api, ticketId, value, onLink, pending }: CheckProps) {
  const [duplicates, setDuplicates] = useState<TThreatDuplicates | null>(null);
  useEffect(() => {
    let live = true;
    void api.findDuplicates(ticketId, value).then((result) => {
      if (live) setDuplicates(result.ok ? result.value : null);
    });
    return () => {
      live = false;
    };
  }, [api, ticketId, value]);
  if (!duplicates || !hasDuplicates(duplicates)) return null;
  return (
    <DuplicateNotice
      duplicates={duplicates}
      pending={pending}
      onLink={() => onLink(duplicates.value)}
    />
  );
}

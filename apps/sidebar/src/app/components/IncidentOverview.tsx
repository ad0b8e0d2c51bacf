import { Tag } from '@zendeskgarden/react-tags';
import { SM } from '@zendeskgarden/react-typography';
import type { TDetailedIncident, TTypeReference } from '../api/incidentTypes';
import { INCIDENT_STATUSES } from '../api/incidentTypes';
import { useI18n } from '../hooks/useI18n';
import { CopyButton } from './CopyButton';
import { DateTime } from './DateTime';
import { DefangedText } from './DefangedText';
import { Breakable, Fields, Row, Section, Stack } from './layout';

const STATUS_HUES: Record<string, string> = {
  approval_required: 'yellow',
  action_required: 'yellow',
  takedown_success: 'green',
  takedown_attempt_failed: 'red',
  takedown_in_progress: 'blue',
  takedown_ready: 'blue',
};

export function subjectOf(incident: TDetailedIncident): string | undefined {
  return incident.subject ?? incident.url ?? incident.domain;
}

function TypeRef({ value }: { value: TTypeReference | undefined }) {
  if (!value) return null;
  return (
    <Breakable title={value.description || undefined}>
      {value.name}
      {value.description ? ` (${value.description})` : ''}
    </Breakable>
  );
}

export function IncidentOverview({ incident }: { incident: TDetailedIncident }) {
  const { t } = useI18n();
  const known = (INCIDENT_STATUSES as readonly string[]).includes(incident.status);
  const subject = subjectOf(incident);
  const taxonomy = incident.threatTaxonomy;
  const knownType = ['domain', 'social', 'email', 'phone', 'ipv4'].includes(incident.incidentType);

  return (
    <Section title={t('overview.title')} testId="overview">
      <Stack data-testid="status">
        <Row>
          <Tag hue={STATUS_HUES[incident.status] ?? 'grey'} size="large">
            <span>{known ? t(`status.${incident.status}.label`) : incident.status}</span>
          </Tag>
        </Row>
        <SM>{known ? t(`status.${incident.status}.meaning`) : t('status.unknown')}</SM>
      </Stack>
      {subject ? (
        <Stack data-testid="subject">
          <SM isBold>{t('overview.subject')}</SM>
          <Row>
            <DefangedText value={subject} />
            <CopyButton value={subject} label={t('overview.copySubject')} />
          </Row>
        </Stack>
      ) : null}
      <Fields
        items={[
          { label: t('overview.incidentId'), value: <Breakable>{incident.id}</Breakable> },
          {
            label: t('overview.protectedDomain'),
            value: <Breakable>{incident.safeDomain}</Breakable>,
          },
          {
            label: t('overview.incidentType'),
            value: knownType ? t(`incidentType.${incident.incidentType}`) : incident.incidentType,
          },
          { label: t('overview.incidentClass'), value: incident.incidentClass },
          { label: t('overview.source'), value: incident.source },
          {
            label: t('overview.reportedBy'),
            value: incident.reportedBy ? <Breakable>{incident.reportedBy}</Breakable> : null,
          },
          { label: t('overview.created'), value: <DateTime value={incident.timestamp} /> },
          {
            label: t('overview.lastUpdate'),
            value: incident.lastHistoryUpdateTimestamp ? (
              <DateTime value={incident.lastHistoryUpdateTimestamp} />
            ) : null,
          },
          {
            label: t('overview.burnStarted'),
            value: incident.burnStartedTimestamp ? (
              <DateTime value={incident.burnStartedTimestamp} />
            ) : null,
          },
          {
            label: t('overview.takedown'),
            value: incident.takedownTimestamp ? (
              <DateTime value={incident.takedownTimestamp} />
            ) : null,
          },
        ]}
      />
      {taxonomy ? (
        <Stack data-testid="taxonomy">
          <SM isBold>{t('overview.taxonomy')}</SM>
          <Fields
            items={[
              { label: t('taxonomy.name'), value: <Breakable>{taxonomy.name}</Breakable> },
              {
                label: t('taxonomy.description'),
                value: taxonomy.description ? <Breakable>{taxonomy.description}</Breakable> : null,
              },
              {
                label: t('taxonomy.targetType'),
                value: taxonomy.incidentTargetType ? (
                  <TypeRef value={taxonomy.incidentTargetType} />
                ) : null,
              },
              {
                label: t('taxonomy.type'),
                value: taxonomy.incidentType ? <TypeRef value={taxonomy.incidentType} /> : null,
              },
              {
                label: t('taxonomy.threatType'),
                value: taxonomy.incidentThreatType ? (
                  <TypeRef value={taxonomy.incidentThreatType} />
                ) : null,
              },
            ]}
          />
        </Stack>
      ) : null}
    </Section>
  );
}

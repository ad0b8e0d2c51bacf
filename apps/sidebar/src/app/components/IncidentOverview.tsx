import { SM } from '@zendeskgarden/react-typography';
import type { TDetailedIncident, TTypeReference } from '../api/incidentTypes';
import { useI18n } from '../hooks/useI18n';
import { DateTime } from './DateTime';
import { DefangedProse } from './DefangedText';
import { breakable } from './fieldValues';
import { enumLabel } from '../lib/labels';
import { Breakable, Fields, Section, Stack } from './layout';

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

/** The incident's facts (the status, threat and id are on the status card). */
export function IncidentOverview({ incident }: { incident: TDetailedIncident }) {
  const { t, lookUp } = useI18n();
  const taxonomy = incident.threatTaxonomy;

  return (
    <Section title={t('overview.title')} testId="overview">
      <Fields
        items={[
          {
            label: t('overview.protectedDomain'),
            value: <Breakable>{incident.safeDomain}</Breakable>,
          },
          {
            label: t('overview.incidentType'),
            value: lookUp(`incidentType.${incident.incidentType}`) ?? incident.incidentType,
          },
          {
            label: t('overview.incidentClass'),
            value: incident.incidentClass
              ? enumLabel(lookUp, 'incidentClass', incident.incidentClass)
              : null,
          },
          {
            label: t('overview.source'),
            value: incident.source ? enumLabel(lookUp, 'source', incident.source) : null,
          },
          { label: t('overview.reportedBy'), value: breakable(incident.reportedBy) },
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
              { label: t('taxonomy.name'), value: <DefangedProse text={taxonomy.name} /> },
              { label: t('taxonomy.description'), value: breakable(taxonomy.description) },
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

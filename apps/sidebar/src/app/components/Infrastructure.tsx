import type { TDetailedIncident } from '../api/incidentTypes';
import { useI18n } from '../hooks/useI18n';
import { enumLabel } from '../lib/labels';
import { breakable, prose } from './fieldValues';
import { Fields, Section } from './layout';

export function Infrastructure({ incident }: { incident: TDetailedIncident }) {
  const { t, lookUp } = useI18n();
  const registrar = incident.registrar;
  if (!registrar && !incident.hostingProvider) return null;
  return (
    <Section title={t('infrastructure.title')} testId="infrastructure">
      <Fields
        items={[
          { label: t('infrastructure.registrar'), value: prose(registrar?.name) },
          {
            label: t('infrastructure.difficulty'),
            value: registrar?.difficulty
              ? enumLabel(lookUp, 'infrastructure.difficultyLevel', registrar.difficulty)
              : null,
          },
          { label: t('infrastructure.registrarNotes'), value: breakable(registrar?.description) },
          { label: t('infrastructure.hostingProvider'), value: prose(incident.hostingProvider) },
        ]}
      />
    </Section>
  );
}

import type { TDetailedIncident } from '../api/incidentTypes';
import { useI18n } from '../hooks/useI18n';
import { enumLabel } from '../lib/labels';
import { DefangedProse } from './DefangedText';
import { Breakable, Fields, Section } from './layout';

export function Infrastructure({ incident }: { incident: TDetailedIncident }) {
  const { t } = useI18n();
  const registrar = incident.registrar;
  if (!registrar && !incident.hostingProvider) return null;
  return (
    <Section title={t('infrastructure.title')} testId="infrastructure">
      <Fields
        items={[
          {
            label: t('infrastructure.registrar'),
            value: registrar?.name ? <DefangedProse text={registrar.name} /> : null,
          },
          {
            label: t('infrastructure.difficulty'),
            value: registrar?.difficulty
              ? enumLabel(t, 'infrastructure.difficultyLevel', registrar.difficulty)
              : null,
          },
          {
            label: t('infrastructure.registrarNotes'),
            value: registrar?.description ? <Breakable>{registrar.description}</Breakable> : null,
          },
          {
            label: t('infrastructure.hostingProvider'),
            value: incident.hostingProvider ? (
              <DefangedProse text={incident.hostingProvider} />
            ) : null,
          },
        ]}
      />
    </Section>
  );
}

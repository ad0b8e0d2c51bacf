import { Tag } from '@zendeskgarden/react-tags';
import type { TIncidentState } from '../api/incidentTypes';
import { useI18n } from '../hooks/useI18n';
import { DateTime } from './DateTime';
import { Muted, Row, Section } from './layout';

const FLAGS = [
  'responsive',
  'unresponsive',
  'warningBanner',
  'contentRemoved',
  'redirect',
  'inconclusive',
] as const;

export function LiveState({ state }: { state: TIncidentState | undefined }) {
  const { t } = useI18n();
  if (!state) return null;
  const set = FLAGS.filter((flag) => state[flag] === true);
  return (
    <Section title={t('liveState.title')} testId="live-state">
      {set.length === 0 ? (
        <Muted>{t('liveState.none')}</Muted>
      ) : (
        <Row role="list" aria-label={t('liveState.flags')}>
          {set.map((flag) => (
            <Tag key={flag} role="listitem" hue={flag === 'contentRemoved' ? 'green' : 'grey'}>
              <span>{t(`liveState.flag.${flag}`)}</span>
            </Tag>
          ))}
        </Row>
      )}
      <Muted>
        {t('liveState.scannedAt')} <DateTime value={state.timestamp} unknownKey="common.unknown" />
      </Muted>
    </Section>
  );
}

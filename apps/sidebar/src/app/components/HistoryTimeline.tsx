import type { TIncidentHistory } from '../api/incidentTypes';
import { useI18n } from '../hooks/useI18n';
import { newestFirst } from '../lib/newestFirst';
import { DateTime } from './DateTime';
import { Breakable, Muted, PlainList, Section } from './layout';
import { SM } from '@zendeskgarden/react-typography';

export function HistoryTimeline({ history }: { history: TIncidentHistory[] }) {
  const { t } = useI18n();
  const entries = newestFirst(history, (entry) => entry.timestamp);
  return (
    <Section title={t('history.title')} testId="history">
      {entries.length === 0 ? (
        <Muted>{t('history.empty')}</Muted>
      ) : (
        <PlainList as="ol" aria-label={t('history.title')}>
          {entries.map((entry, index) => (
            <li key={`${entry.timestamp}-${index}`} data-testid="history-entry">
              <Muted>
                <DateTime value={entry.timestamp} />
              </Muted>
              <SM>
                <Breakable>{entry.message}</Breakable>
              </SM>
            </li>
          ))}
        </PlainList>
      )}
    </Section>
  );
}

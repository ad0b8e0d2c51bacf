import { useState } from 'react';
import { Timeline } from '@zendeskgarden/react-accordions';
import { Button } from '@zendeskgarden/react-buttons';
import { SM } from '@zendeskgarden/react-typography';
import type { TIncidentHistory } from '../api/incidentTypes';
import { useI18n } from '../hooks/useI18n';
import { newestFirst } from '../lib/newestFirst';
import { DateTime } from './DateTime';
import { DefangedProse } from './DefangedText';
import { Muted, Section } from './layout';

/** Entries shown before "show all": the latest ones are what the agent needs. */
const HISTORY_PREVIEW = 5;

export function HistoryTimeline({ history }: { history: TIncidentHistory[] }) {
  const { t } = useI18n();
  const [showAll, setShowAll] = useState(false);
  const entries = newestFirst(history, (entry) => entry.timestamp);
  const shown = showAll ? entries : entries.slice(0, HISTORY_PREVIEW);
  return (
    <Section title={t('history.title')} testId="history">
      {entries.length === 0 ? (
        <Muted>{t('history.empty')}</Muted>
      ) : (
        <Timeline aria-label={t('history.title')}>
          {shown.map((entry, index) => (
            <Timeline.Item key={`${entry.timestamp}-${index}`} data-testid="history-entry">
              <Timeline.Content>
                <Muted>
                  <DateTime value={entry.timestamp} />
                </Muted>
                <SM>
                  <DefangedProse text={entry.message} />
                </SM>
              </Timeline.Content>
            </Timeline.Item>
          ))}
        </Timeline>
      )}
      {entries.length > HISTORY_PREVIEW ? (
        <div>
          <Button size="small" isBasic onClick={() => setShowAll((v) => !v)}>
            {showAll ? t('history.showFewer') : t('history.showAll', { count: entries.length })}
          </Button>
        </div>
      ) : null}
    </Section>
  );
}

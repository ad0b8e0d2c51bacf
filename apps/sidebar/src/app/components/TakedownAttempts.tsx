import { Tag } from '@zendeskgarden/react-tags';
import type { TTakedownAttempts } from '../api/incidentTypes';
import type { TUnavailablePart } from '@incident-desk/sidebar-contract';
import { useI18n } from '../hooks/useI18n';
import { readAttempts, type ReadAttempt } from '../lib/attempts';
import { DateTime } from './DateTime';
import { Muted, PlainList, Row, Section } from './layout';
import { SM } from '@zendeskgarden/react-typography';
import { unavailableText } from '../lib/unavailableText';

const OUTCOME_HUES: Record<string, string> = { success: 'green', failed: 'red' };

function AttemptItem({ attempt }: { attempt: ReadAttempt }) {
  const { t, lookUp } = useI18n();
  const { reading } = attempt;
  let tag;
  if (reading.kind === 'in_progress')
    tag = (
      <Tag hue="blue">
        <span>{t('attempts.inProgress')}</span>
      </Tag>
    );
  else if (reading.kind === 'restarted')
    tag = (
      <Tag hue="yellow">
        <span>{t('attempts.restarted')}</span>
      </Tag>
    );
  else if (reading.kind === 'resolved')
    tag = (
      <Tag hue={OUTCOME_HUES[reading.outcome] ?? 'grey'}>
        <span>{lookUp(`attempts.outcome.${reading.outcome}`) ?? reading.outcome}</span>
      </Tag>
    );
  else
    tag = (
      <Tag>
        <span>{t('common.unknown')}</span>
      </Tag>
    );

  return (
    <li data-testid="attempt">
      <Row>{tag}</Row>
      <Muted>
        {t('attempts.started')}{' '}
        {attempt.startedBeforeRecording ? (
          t('attempts.startedBeforeRecording')
        ) : (
          <DateTime value={reading.startedAt} />
        )}
      </Muted>
      {reading.kind === 'resolved' ? (
        <Muted>
          {t('attempts.resolved')}{' '}
          {attempt.resolvedDateUnknown ? (
            t('attempts.resolvedBeforeRecording')
          ) : (
            <DateTime value={reading.resolvedAt} />
          )}
        </Muted>
      ) : null}
      {reading.kind === 'restarted' ? <SM>{t('attempts.restartedExplained')}</SM> : null}
    </li>
  );
}

interface Props {
  attempts: TTakedownAttempts | null;
  unavailable?: TUnavailablePart;
}

export function TakedownAttempts({ attempts, unavailable }: Props) {
  const { t } = useI18n();
  let body;
  if (!attempts) body = <Muted>{unavailableText(t, unavailable)}</Muted>;
  else if (attempts.takedownAttempts.length === 0) body = <Muted>{t('attempts.empty')}</Muted>;
  else
    body = (
      <PlainList as="ol" aria-label={t('attempts.title')}>
        {readAttempts(attempts.takedownAttempts).map((attempt, index) => (
          <AttemptItem key={index} attempt={attempt} />
        ))}
      </PlainList>
    );
  return (
    <Section title={t('attempts.title')} testId="attempts">
      {body}
      <Muted>{t('attempts.delayNote')}</Muted>
    </Section>
  );
}

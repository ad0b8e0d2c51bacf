import type { TUsage } from '../api/incidentTypes';
import type { TUnavailablePart } from '@incident-desk/sidebar-contract';
import { useI18n } from '../hooks/useI18n';
import { Muted, Section } from './layout';
import { SM } from '@zendeskgarden/react-typography';
import { unavailableText } from '../lib/unavailableText';

export function Credits({
  usage,
  unavailable,
}: {
  usage: TUsage | null;
  unavailable?: TUnavailablePart;
}) {
  const { t } = useI18n();
  let text: string;
  if (!usage) text = unavailableText(t, unavailable);
  else if (usage.remainingCredits === 'unlimited') text = t('credits.unlimited');
  // null means the client does not use credits: it is not zero.
  else if (usage.remainingCredits === null) text = t('credits.notApplicable');
  else if (usage.remainingCredits === 0) text = t('credits.depleted');
  else text = t('credits.remaining', { count: usage.remainingCredits });
  return (
    <Section title={t('credits.title')} testId="credits">
      <SM data-testid="credits-value">{text}</SM>
      {usage?.clientName ? <Muted>{usage.clientName}</Muted> : null}
    </Section>
  );
}

import { useI18n } from '../hooks/useI18n';
import type { TranslationKey } from '../lib/i18n';

/** A timestamp in the agent's locale and time zone, with the machine value for assistive tech. */
export function DateTime({
  value,
  unknownKey,
  dateOnly,
}: {
  value: string | null | undefined;
  unknownKey?: TranslationKey;
  /** A calendar date (WHOIS, certificate): shown as the date written, whatever the time zone. */
  dateOnly?: boolean;
}) {
  const { formatDateTime, formatDate, t } = useI18n();
  const text = dateOnly ? formatDate(value) : formatDateTime(value);
  if (text === null || !value) return unknownKey ? <>{t(unknownKey)}</> : null;
  return <time dateTime={dateOnly ? value.slice(0, 10) : value}>{text}</time>;
}

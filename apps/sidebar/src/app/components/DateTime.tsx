import { useI18n } from '../hooks/useI18n';

/** A timestamp in the agent's locale and time zone, with the machine value for assistive tech. */
export function DateTime({
  value,
  unknownKey,
}: {
  value: string | null | undefined;
  unknownKey?: string;
}) {
  const { formatDateTime, t } = useI18n();
  const text = formatDateTime(value);
  if (text === null || !value) return unknownKey ? <>{t(unknownKey)}</> : null;
  return <time dateTime={value}>{text}</time>;
}

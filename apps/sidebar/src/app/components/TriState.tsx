import { useI18n } from '../hooks/useI18n';

/** true, false, or null = undetermined (the record was missing or unparseable; not false). */
export function TriState({ value }: { value: boolean | null | undefined }) {
  const { t } = useI18n();
  if (value === undefined) return null;
  if (value === null) return <>{t('common.undetermined')}</>;
  return <>{value ? t('common.yes') : t('common.no')}</>;
}

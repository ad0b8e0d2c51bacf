import { Skeleton } from '@zendeskgarden/react-loaders';
import { useI18n } from '../hooks/useI18n';
import { Stack } from './layout';

export function LoadingSkeleton() {
  const { t } = useI18n();
  return (
    <Stack
      role="status"
      aria-busy="true"
      aria-label={t('common.loading')}
      data-testid="loading-skeleton"
    >
      <Skeleton width="60%" />
      <Skeleton width="90%" />
      <Skeleton width="80%" />
      <Skeleton width="40%" />
      <Skeleton width="70%" />
    </Stack>
  );
}

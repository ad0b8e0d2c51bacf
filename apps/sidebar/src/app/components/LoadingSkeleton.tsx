import { useEffect, useState } from 'react';
import { Skeleton } from '@zendeskgarden/react-loaders';
import { useI18n } from '../hooks/useI18n';
import { Muted, Stack } from './layout';

/** After this long the skeleton says the wait is the service's, not a frozen app. */
export const SLOW_AFTER_MS = 3000;

/**
 * `neutral`: before the agent's locale is known, no words at all (English first and French a moment
 * later would be a flash of the wrong language): only the skeleton's shapes.
 */
export function LoadingSkeleton({
  context,
  neutral = false,
}: {
  context?: string;
  neutral?: boolean;
}) {
  const { t } = useI18n();
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), SLOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <Stack role="status" aria-busy="true" data-testid="loading-skeleton">
      {context ? <Muted>{context}</Muted> : null}
      {neutral ? null : (
        <Muted data-testid="loading-label">
          {slow ? t('common.loadingSlow') : t('common.loading')}
        </Muted>
      )}
      <Skeleton width="60%" />
      <Skeleton width="90%" />
      <Skeleton width="80%" />
    </Stack>
  );
}

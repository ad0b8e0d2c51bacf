import type { TUnavailablePart } from '@incident-desk/sidebar-contract';

import type { Translate } from './i18n';

/** Why a part of the incident is not shown (without a known reason: a temporary failure). */
export function unavailableText(t: Translate, unavailable: TUnavailablePart | undefined): string {
  if (unavailable?.reason === 'rate_limited' && unavailable.retryAfterSeconds !== undefined)
    return t('unavailable.rate_limited_in', { count: unavailable.retryAfterSeconds });
  return t(`unavailable.${unavailable?.reason ?? 'temporarily_unavailable'}`);
}

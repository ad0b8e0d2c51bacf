import type { TUnavailablePart } from '../api/sidebarContract';

type Translate = (key: string, vars?: Record<string, number>) => string;

const KNOWN_REASONS = new Set<string>(['not_enabled', 'rate_limited', 'not_found']);

/** Why a part of the incident is not shown; a reason this sidebar does not know reads as temporary. */
export function unavailableText(t: Translate, unavailable: TUnavailablePart | undefined): string {
  if (unavailable?.reason === 'rate_limited' && unavailable.retryAfterSeconds !== undefined)
    return t('unavailable.rate_limited_in', { count: unavailable.retryAfterSeconds });
  const reason =
    unavailable && KNOWN_REASONS.has(unavailable.reason)
      ? unavailable.reason
      : 'temporarily_unavailable';
  return t(`unavailable.${reason}`);
}

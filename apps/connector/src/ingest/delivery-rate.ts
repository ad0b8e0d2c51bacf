// How many Zendesk deliveries one account may have stored: a token bucket per account, in this
// process's memory, so the check costs no database statement. With several instances behind a
// balancer each keeps its own buckets: an account gets up to N times the limit, still a bound.
// Only signed deliveries reach it (the receiver checks after the signature), so its map holds at
// most one bucket per installed account, and an unsigned flood never spends an account's allowance.

export interface DeliveryLimit {
  /** Deliveries an account may have accepted per minute, sustained; 0 = no limit. */
  perMinute: number;
  /** Deliveries accepted at once after a quiet spell (the bucket's size). */
  burst: number;
}

/** Generous for a real support team: a bulk edit of a few hundred tickets goes through at once. */
export const DEFAULT_DELIVERY_LIMIT: DeliveryLimit = { perMinute: 300, burst: 600 };

type DeliveryAllowance = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface DeliveryRate {
  readonly limit: DeliveryLimit;
  /** Spends one of the account's deliveries, or says how long until one is back. */
  take(accountId: string): DeliveryAllowance;
}

export function createDeliveryRate(
  limit: DeliveryLimit = DEFAULT_DELIVERY_LIMIT,
  now: () => number = Date.now,
): DeliveryRate {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const perMs = limit.perMinute / 60_000;
  return {
    limit,
    take(accountId) {
      if (limit.perMinute === 0) return { ok: true };
      const at = now();
      const bucket = buckets.get(accountId) ?? { tokens: limit.burst, at };
      // a clock that went back refills nothing
      bucket.tokens = Math.min(limit.burst, bucket.tokens + Math.max(0, at - bucket.at) * perMs);
      bucket.at = at;
      buckets.set(accountId, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return {
        ok: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)),
      };
    },
  };
}

// An incident event sent to the connector as the incident service sends it: a delivery not
// acknowledged (2xx) within 5 seconds, whether answered otherwise, not answered in time or its
// connection failed, is sent again, the same envelope, after 2, 10, 60 and 300 s (the incident
// sandbox's own schedule, docs/incident-service-api.md: a connector restarting on a loaded machine
// still gets its events). A delivery sent again is a figure of the run (counted by cause, and in
// bench-support's retry counts), not a failure of it.
import { signWebhook } from '@incident-desk/incident-api';
import { countRetry, transientCause } from '../../../scripts/bench-support';

/** The contract's webhook acknowledgement: 2xx within 5 seconds, else the service sends it again. */
const ACKNOWLEDGEMENT_WINDOW_MS = 5_000;
const REDELIVERY_DELAYS_MS = [2_000, 10_000, 60_000, 300_000];

export interface Delivery {
  /** HTTP status of the last attempt; 0 when it got no answer in time. */
  status: number;
  /** performance.now() when the last attempt ended: the acknowledgement, when there is one. */
  answeredAt: number;
  /** Why each attempt was not acknowledged, in order (empty when the first one was). */
  missed: string[];
}

const acknowledges = (status: number) => status >= 200 && status < 300;

function missedCause(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError')
    return `not answered within ${ACKNOWLEDGEMENT_WINDOW_MS / 1000} s`;
  return transientCause(error) ?? (error instanceof Error ? error.message : String(error));
}

/**
 * Sends by `attempt` (one POST, its answer bounded by the `timeoutMs` it is given, resolving with
 * the HTTP status) until an attempt is acknowledged or the service's schedule is over. Each miss
 * is added to `missed` as it happens (the progress lines count them).
 */
export async function deliverAsTheService(
  attempt: (timeoutMs: number) => Promise<number>,
  {
    missed = [],
    delaysMs = REDELIVERY_DELAYS_MS,
  }: { missed?: string[]; delaysMs?: readonly number[] } = {},
): Promise<Delivery> {
  for (let n = 0; ; n += 1) {
    let status = 0;
    try {
      status = await attempt(ACKNOWLEDGEMENT_WINDOW_MS);
      if (acknowledges(status)) return { status, answeredAt: performance.now(), missed };
      missed.push(`answered ${status}`);
    } catch (error) {
      missed.push(missedCause(error));
    }
    const delay = delaysMs[n];
    if (delay === undefined) return { status, answeredAt: performance.now(), missed };
    countRetry('incident delivery', missed.at(-1)!);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** Deliveries not acknowledged (each sent again, but for an event's last), by cause. */
export function missedDeliveries(deliveries: readonly Pick<Delivery, 'missed'>[]) {
  const byCause: Record<string, number> = {};
  for (const cause of deliveries.flatMap((d) => d.missed))
    byCause[cause] = (byCause[cause] ?? 0) + 1;
  return {
    deliveriesNotAcknowledged: Object.values(byCause).reduce((sum, n) => sum + n, 0),
    deliveriesNotAcknowledgedByCause: byCause,
  };
}

/** One attempt of deliverAsTheService: `body` POSTed to a subscription, signed afresh each time. */
export function signedPost(subscription: { url: string; secret: string }, body: string) {
  return async (timeoutMs: number): Promise<number> => {
    const response = await fetch(subscription.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signWebhook({ secret: subscription.secret, body }),
      },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer();
    return response.status;
  };
}

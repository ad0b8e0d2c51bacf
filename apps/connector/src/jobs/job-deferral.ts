// A job that must wait for another system (a 429's Retry-After, another job's claim, a report
// still under way) never waits in its worker slot: it throws a JobDeferral, and the worker hands
// the job back to the queue to run again after the delay, keeping its place in its key's order
// and without counting the wait as a failed attempt.
import { parseRetryAfterMs } from '@incident-desk/client-core';
import { RateLimitError } from '@incident-desk/incident-api';

export class JobDeferral extends Error {
  override name = 'JobDeferral';
  readonly delayMs: number;
  constructor(delayMs: number, reason: string) {
    super(reason);
    this.delayMs = Math.max(0, Math.ceil(delayMs));
  }
}

/** Retry-After assumed for a 429 that names none. */
export const DEFAULT_RATE_LIMIT_DELAY_MS = 60_000;

/**
 * The deferral an error asks for: a JobDeferral itself, or a 429 from the incident service (for
 * its Retry-After); null for any other error. Zendesk's 429s are accounts' to read
 * (zendeskDeferralOf): the worker asks both.
 */
export function deferralOf(error: unknown): JobDeferral | null {
  if (error instanceof JobDeferral) return error;
  if (error instanceof RateLimitError) {
    return new JobDeferral(
      parseRetryAfterMs(error.headers.get('retry-after')) ?? DEFAULT_RATE_LIMIT_DELAY_MS,
      'the incident service is limiting requests (429)',
    );
  }
  return null;
}

import type { TDatabase } from '@incident-desk/db';

export interface IncidentEventDeps {
  db: TDatabase;
  now?: () => Date;
  /**
   * How long an event for an unlinked incident waits before the link is checked again: the report
   * flow may still be saving the link of an incident it just created. Default 3 000 ms.
   */
  unlinkedWaitMs?: number;
  /** How long to wait for another worker that is opening the ticket of the same incident. Default 10 000 ms. */
  claimWaitMs?: number;
  /** A claim older than this belongs to a worker that stopped; it may be taken over. Default 120 000 ms. */
  claimStaleMs?: number;
  /** Poll interval while waiting for a claim. Default 100 ms. */
  pollIntervalMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface ResolvedDeps {
  db: TDatabase;
  now: () => Date;
  unlinkedWaitMs: number;
  claimWaitMs: number;
  claimStaleMs: number;
  pollIntervalMs: number;
  sleep: (ms: number) => Promise<void>;
}

export function resolveDeps(deps: IncidentEventDeps): ResolvedDeps {
  return {
    db: deps.db,
    now: deps.now ?? (() => new Date()),
    unlinkedWaitMs: deps.unlinkedWaitMs ?? 3_000,
    claimWaitMs: deps.claimWaitMs ?? 10_000,
    claimStaleMs: deps.claimStaleMs ?? 120_000,
    pollIntervalMs: deps.pollIntervalMs ?? 100,
    sleep: deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
  };
}

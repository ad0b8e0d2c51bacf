// What every sync handler (ticket events, incident events) is given: one type, with the defaults
// applied in one place (resolveSyncDeps).
import type { TDatabase } from '@incident-desk/db';
import { OWN_CALL_IN_FLIGHT_MS } from './echo-ledger/echo-windows';
import type { TicketWriterSignal } from './ticket-writes/ticket-writer-signal';
import { ZENDESK_WRITE_LIMITS, type WriteLimits } from './ticket-writes/write-budget';

export interface SyncDeps {
  db: TDatabase;
  now?: () => Date;
  /**
   * The queue's last try for this job: a transient failure is then written to the ticket as a
   * note instead of being thrown for another retry. Default false.
   */
  lastAttempt?: boolean;
  /**
   * The inbox receipt the job came from (the job id). A report that ends having created nothing
   * releases it, so that the same request (the submit tag added again) is accepted anew.
   */
  receiptId?: string;
  /**
   * How long after its receipt an event for an unlinked incident is deferred before the link is
   * checked again: the report flow may still be saving the link of an incident it just created.
   * Default 3 000 ms.
   */
  unlinkedWaitMs?: number;
  /** A claim older than this belongs to a worker that stopped; it may be taken over. Default 120 000 ms. */
  claimStaleMs?: number;
  /**
   * How long a job waiting on another's work (a claim, a report or an own call under way) is
   * deferred before it looks again. Default 1 000 ms.
   */
  pollIntervalMs?: number;
  /**
   * A report started longer ago than this and still `sending` belongs to a worker that stopped;
   * it no longer holds back tickets for unlinked incidents. Default 900 000 ms.
   */
  reportInFlightMs?: number;
  /**
   * A call the connector made to an incident (a forwarded comment, an action request) started
   * longer ago than this and still marked under way belongs to a caller that stopped: history
   * events of the incident no longer wait for it. Default 60 000 ms (OWN_CALL_IN_FLIGHT_MS).
   */
  ownCallInFlightMs?: number;
  /**
   * The account's shared writer, signalled after a change is recorded. Without one the change is
   * written at once by the same code (tests, one-off tools).
   */
  writer?: TicketWriterSignal;
  /**
   * How long a recorded change waits for its companions before it may be written: the service
   * sends a status change and its history entry as two deliveries of one moment, and takedown
   * progress (blocklist, attempts, snapshots) in bursts. Default 2 500 ms.
   */
  writeHoldMs?: number;
  /** Budgets under Zendesk's Update Ticket limits. Default ZENDESK_WRITE_LIMITS. */
  writeLimits?: WriteLimits;
}

/** SyncDeps with every default applied. */
export interface ResolvedSyncDeps {
  db: TDatabase;
  now: () => Date;
  lastAttempt: boolean;
  receiptId: string | undefined;
  unlinkedWaitMs: number;
  claimStaleMs: number;
  pollIntervalMs: number;
  reportInFlightMs: number;
  ownCallInFlightMs: number;
  writer: TicketWriterSignal | undefined;
  writeHoldMs: number;
  writeLimits: WriteLimits;
}

export function resolveSyncDeps(deps: SyncDeps): ResolvedSyncDeps {
  return {
    db: deps.db,
    now: deps.now ?? (() => new Date()),
    lastAttempt: deps.lastAttempt ?? false,
    receiptId: deps.receiptId,
    unlinkedWaitMs: deps.unlinkedWaitMs ?? 3_000,
    claimStaleMs: deps.claimStaleMs ?? 120_000,
    pollIntervalMs: deps.pollIntervalMs ?? 1_000,
    reportInFlightMs: deps.reportInFlightMs ?? 900_000,
    ownCallInFlightMs: deps.ownCallInFlightMs ?? OWN_CALL_IN_FLIGHT_MS,
    writer: deps.writer,
    writeHoldMs: deps.writeHoldMs ?? 2_500,
    writeLimits: deps.writeLimits ?? ZENDESK_WRITE_LIMITS,
  };
}

export const nowOf = (deps: SyncDeps): Date => (deps.now ? deps.now() : new Date());

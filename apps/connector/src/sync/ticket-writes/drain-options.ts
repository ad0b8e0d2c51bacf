// What a pass of an account's writer is told (drain-account.ts) and what it answers.
import type { WaitingChange } from './coalesce';
import type { WriteLimits } from './write-budget';

export interface DrainOptions {
  now: () => Date;
  limits: WriteLimits;
  /** Write changes still inside their wait (the inline path of tests and one-off tools). */
  ignoreReadyAt?: boolean;
  /** After a 5xx or a timeout, how long a ticket waits before its note is looked for. Default 5 000 ms. */
  unsureRetryMs?: number;
  /** Retry-After assumed when a 429 names none. Default 60 s. */
  defaultRetryAfterSeconds?: number;
  /** How soon after queuing (and between reads) an update_many job's status is read. Default 1 000 ms. */
  jobPollIntervalMs?: number;
  /**
   * Follow an update_many job to its results within the pass, for at most jobMaxWaitMs (default
   * 60 s): the inline path of tests and one-off tools. The account writer's passes never wait.
   */
  waitForJobs?: boolean;
  jobMaxWaitMs?: number;
  /**
   * How long changes sent in a request stay untouched by other passes: longer than the Zendesk
   * client's per-attempt timeout. Default 45 000 ms. A queued update_many's changes stay untouched
   * while its job is queued or working.
   */
  leaseMs?: number;
  /**
   * The instance writing, when a shared writer runs the pass: what it sends names it, what dead
   * instances were sending is resumed, and the account's writer lease is renewed (or found lost)
   * in the transaction that marks the pass's writes. Without it (inline path) none of that applies.
   */
  writer?: PassWriter;
  /** Told after each ticket write Zendesk accepted: its changes and when it was written (metrics). */
  onWritten?: (changes: readonly WaitingChange[], at: Date) => void;
  /** Told about every failed request of the account's writer (write-health-recorder.ts). */
  onWriteFailure?: (accountId: string, error: unknown) => void;
  /** Told after a pass in which Zendesk accepted a write of the account (write health). */
  onWriteSucceeded?: (accountId: string) => void;
}

export interface PassWriter {
  /** connector_instance.id of this process. */
  instanceId: string;
  /** Heartbeats at or before this are dead ones (InstanceLiveness.aliveCutoff()). */
  aliveCutoff: () => Date;
  /** False while this process's own heartbeat is late: it sends nothing others may take over. */
  heartbeatFresh?: () => boolean;
  /** Length of the account's writer lease renewed when the pass marks its writes. */
  leaseMs?: number;
}

export interface DrainResult {
  /** Tickets updated in this pass (a finished update_many's included). */
  written: number;
  /** Requests sent (updates and update_many). */
  requests: number;
  /** When something waiting may next be written; null when nothing waits. */
  nextAt: Date | null;
  /** Changes in flight of dead instances whose lease this pass voided, per instance. */
  resumed: { instance: string; changes: number }[];
  /** The account's writer lease went to another instance before anything was sent. */
  leaseLost: boolean;
}

/** How long an inline pass follows an update_many job. */
export function jobMaxWaitMs(options: DrainOptions): number {
  return options.jobMaxWaitMs ?? 60_000;
}

/** How soon an update_many job's status is read again. */
export function jobPollMs(options: DrainOptions): number {
  return options.jobPollIntervalMs ?? 1_000;
}

/** When changes Zendesk may or may not have applied are next looked at. */
export function unsureRetryAt(options: DrainOptions): Date {
  return new Date(options.now().getTime() + (options.unsureRetryMs ?? 5_000));
}

/** The wait a 429 that names no Retry-After asks of the drain. */
export function rateLimitDefaultMs(
  options: Pick<DrainOptions, 'defaultRetryAfterSeconds'>,
): number {
  return (options.defaultRetryAfterSeconds ?? 60) * 1000;
}

// What the connector's metrics record, and what their gauges read at each scrape.
import type { Registry } from 'prom-client';
import type { IncidentCallObservation } from '@incident-desk/incident-api';

/**
 * One attempt of a call to Zendesk, as the client reports it. Zendesk's client's own observation
 * must fit it: accounts hands this observer to the client, so a change there is a type error.
 */
export interface ZendeskCall {
  method: string;
  /** The path with its ids replaced by `{id}`; `external` for another origin. */
  endpoint: string;
  /** The response's status, or `connection` / `timeout` when none came. */
  status: number | 'connection' | 'timeout';
  /** Whether the client tries again after this attempt. */
  retry: boolean;
  durationMs: number;
}

/** Every series' name starts with it. */
export const PREFIX = 'incident_desk_';

export type TokenRefreshOutcome =
  'refreshed' | 'already_refreshed' | 'reauthorization_required' | 'failed';

/**
 * What an instance took over from a dead one: an account's ticket writer (its lease), or the
 * ticket changes the dead instance was sending (settled without waiting out their lease).
 */
/** What a live instance takes over from a dead one: a job, an account's writer, the changes it was sending. */
export type TakeoverKind = 'job' | 'ticket_writer' | 'changes_in_flight';

/** What the queue gauges read at each scrape (worker/queue-depths.ts). */
export interface QueueDepthReader {
  read(): Promise<
    { queue: string; queued: number; active: number; deferred: number; oldestAgeSeconds: number }[]
  >;
}

/** What the ticket-write gauges read at each scrape (sync/ticket-writes/write-health-report.ts). */
export interface TicketWriteHealthReader {
  read(): Promise<{
    lateAfterSeconds: number;
    oldestWaitingSeconds: number;
    /** Accounts whose writes fail, per cause, and those late without an error (`late`). */
    troubled: Record<string, number>;
    accounts: readonly { subdomain: string; oldestWaitingSeconds: number | null }[];
  }>;
}

/** Late accounts with a series of their own at most; the rest are in the counts. */
export const TROUBLED_SERIES_MAX = 50;

export interface ConnectorMetrics {
  readonly registry: Registry;
  httpRequest(labels: { method: string; route: string; status: number }, seconds: number): void;
  webhookVerdict(receiver: 'incident' | 'zendesk', verdict: string): void;
  jobOutcome(queue: string, outcome: string): void;
  /** How long one run of a job took, by queue and how it ended. */
  jobDuration(queue: string, outcome: string, seconds: number): void;
  /** A TCP connection refused at a connection cap (total or per client). */
  connectionRefused(reason: 'total_cap' | 'client_cap'): void;
  zendeskCall(call: ZendeskCall): void;
  incidentCall(call: IncidentCallObservation): void;
  tokenRefresh(outcome: TokenRefreshOutcome): void;
  /** A note or ticket change was written: from the event's receipt to now, and how many changes one write carried. */
  ticketWrite(changes: number, receivedAt: readonly (Date | null)[], writtenAt: Date): void;
  /** Reads queue depths on each scrape from `reader` (set once the queue exists). */
  watchQueues(reader: QueueDepthReader): void;
  /** Retention deleted `rows` expired rows of `table`. */
  retentionDeleted(table: string, rows: number): void;
  /** An account's app installation was read: installed, not yet installed, uninstalled, unknown. */
  installationChecked(result: string): void;
  /** Reads the accounts' ticket-write health on each scrape from `reader`. */
  watchTicketWrites(reader: TicketWriteHealthReader): void;
  /** This instance took something over from a dead instance. */
  takeover(kind: TakeoverKind): void;
  /** Reads the statements sent to the database so far on each scrape from `read`. */
  watchDatabaseStatements(read: () => number): void;
}

// How an account's ticket updates are doing: the connector's write health
// (apps/connector/src/sync/ticket-writes/write-health-report.ts) as GET /admin/api/overview answers
// it and apps/admin/src/sections/TicketWrites.tsx words it. The same cause names appear in
// /healthz's operator details and in the metrics.

/** Why the account's ticket writes fail, from what the writer met (write-failure-cause.ts). */
export const TICKET_WRITE_CAUSES = [
  /** Zendesk answered 500-599. */
  'zendesk_5xx',
  /** Zendesk did not answer within the client's timeout. */
  'zendesk_timeout',
  /** No answer at all: DNS, refused or reset connection. */
  'zendesk_connection',
  /** 429: something else spends the account's Zendesk budget; the writer waits for Retry-After. */
  'zendesk_rate_limited',
  /** 401 after a token renewal, or the grant revoked or expired: an admin must authorise again. */
  'reauthorization_required',
  /** 403: the token lacks a scope or a permission the update needs. */
  'zendesk_forbidden',
  /** Any other answer the writer cannot act on (400, 409, a body it cannot read). */
  'zendesk_error',
  /** The account's incident connection is not configured, so its writer cannot start. */
  'not_configured',
] as const;
export type TTicketWriteCause = (typeof TICKET_WRITE_CAUSES)[number];

/** Causes that need an administrator, not time: shown even when no change is waiting. */
export const ACCESS_CAUSES: readonly TTicketWriteCause[] = [
  'reauthorization_required',
  'zendesk_forbidden',
  'not_configured',
];

export interface TicketWriteFailure {
  cause: TTicketWriteCause;
  /** Zendesk's HTTP status when it answered. */
  status: number | null;
  /** E.g. the missing scope; null when there is nothing more to say. */
  detail: string | null;
  /** The first failure of the ongoing run (ISO 8601). */
  since: string;
  /** The latest failure (ISO 8601). */
  lastAt: string;
}

export type TTicketWriteState = 'ok' | 'failing' | 'recovering' | 'late';

export interface TicketWriteHealth {
  /**
   * `failing`: the latest writes failed and none succeeded since; `recovering`: Zendesk takes the
   * updates again, but changes held back by the failure still wait; `late`: no error, but a change
   * has waited longer than `lateAfterSeconds`; `ok`: none of these.
   */
  state: TTicketWriteState;
  failure: TicketWriteFailure | null;
  /** While recovering: when the failing run's latest failure was (ISO 8601); otherwise null. */
  recoveringFrom: string | null;
  /** Changes recorded and not yet written (nor refused for good). */
  waiting: number;
  /** When the oldest of them was recorded (ISO 8601), null when none waits. */
  oldestWaitingAt: string | null;
  lateAfterSeconds: number;
  /** When the connector read this: ages are counted from it, not from the browser's clock. */
  checkedAt: string;
}

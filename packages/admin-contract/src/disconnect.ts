// Disconnecting an account: what POST /admin/api/disconnect takes and answers (the connector's
// apps/connector/src/disconnect/disconnect-account.ts), and how GET /admin/api/overview says an
// account is disconnected; apps/admin/src/sections/Disconnect.tsx words both.

/** Why an account is disconnected. */
export const DISCONNECT_REASONS = [
  /** The sidebar app, seen installed before, is no longer among the account's installations. */
  'app_uninstalled',
  /** Zendesk refused a refresh for good (grant revoked, refresh token expired): nothing can act. */
  'authorization_lost',
  /** An admin disconnected it and the removal did not finish; disconnecting again finishes it. */
  'admin_disconnect',
] as const;
export type TDisconnectReason = (typeof DISCONNECT_REASONS)[number];

/** The account's disconnection as the overview shows it; null while it is connected. */
export interface AccountDisconnection {
  reason: TDisconnectReason;
  since: string;
  detail: string | null;
}

export interface DisconnectRequest {
  /** Delete the three ticket fields even when tickets hold values in them (the values are lost). */
  deleteTicketFields: boolean;
}

/** What one line of the result is about. */
export type TDisconnectItem =
  | 'view'
  | 'trigger'
  | 'zendesk_webhook'
  | 'ticket_field'
  | 'incident_subscription'
  | 'oauth_token'
  | 'account_data';

/**
 * `removed`: gone now; `already_gone`: it was not there any more; `kept`: left on purpose (a field
 * tickets use); `failed`: still there, remove it by hand; `skipped`: nothing could be done.
 */
export type TDisconnectOutcome = 'removed' | 'already_gone' | 'kept' | 'failed' | 'skipped';

export interface DisconnectStep {
  item: TDisconnectItem;
  /** A title, a client id, an id. */
  target: string;
  outcome: TDisconnectOutcome;
  message?: string;
}

export interface DisconnectResult {
  /** True when nothing failed (kept fields are a choice, not a failure). */
  ok: boolean;
  steps: DisconnectStep[];
  finishedAt: string;
}

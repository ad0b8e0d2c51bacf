// Failed syncs as GET /admin/api/dead-letters answers them: what failed, why and what Retry does,
// as codes and facts (the connector's apps/connector/src/admin/dead-letter-codes.ts); the admin
// page words them in the admin's language (apps/admin/src/dead-letter-text.ts). A code the page
// does not know yet reads as a generic sentence.

/** What the failed job was doing; it also names what Retry does. */
export const FAILED_WORKS = [
  /** Reporting the ticket's threat to the incident service. */
  'ticket_report',
  /** Forwarding the ticket's new comments to the incident. */
  'ticket_comments',
  /** Sending the ticket's action request to the incident. */
  'ticket_action',
  /** Any other ticket change sent to the incident service. */
  'ticket_change',
  /** Applying an incident update to its ticket. */
  'incident_update',
  /** Writing the incident's changes to the ticket (refused for good: no retry). */
  'ticket_write',
  /** Setup of the account, failed on every attempt. */
  'account_setup',
  /** Forwarding one comment of the ticket to the incident. */
  'comment_forward',
  /** Any other background job. */
  'background_job',
] as const;
export type TFailedWork = (typeof FAILED_WORKS)[number];

/** Who answered (or did not): read from the failure's reason and the job's direction. */
export type TFailureParty = 'incident_service' | 'zendesk' | 'other_side';

/**
 * Why it failed: `http_status` an HTTP answer (4xx/5xx); `timeout` no answer in time;
 * `unreachable` no connection; `stopped_with` anything else, the raw reason kept as it is;
 * `no_reason` nothing recorded; `outcome_unknown` the worker stopped while posting it.
 */
export type TFailureProblem =
  | { code: 'http_status'; party: TFailureParty; status: number }
  | { code: 'timeout'; party: TFailureParty }
  | { code: 'unreachable'; party: TFailureParty }
  | { code: 'stopped_with'; reason: string }
  | { code: 'no_reason' }
  | { code: 'outcome_unknown' };

/** What a failed sync says about itself, in codes. */
export interface FailureDescription {
  work: TFailedWork;
  problem: TFailureProblem;
}

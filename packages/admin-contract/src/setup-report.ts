// How a setup run ended, as GET /admin/api/overview answers it (setup.report): codes and facts
// written by the connector's apps/connector/src/accounts/setup-job.ts and setup-preconditions.ts,
// worded in the admin's language by apps/admin/src/setup-outcome-text.ts. A report stored before
// the codes existed has only its English `message`; an outcome code the page does not know yet
// reads as a generic sentence.

/**
 * `finished` every step worked; `finished_with_failures` some steps failed; `ran_too_long` the run
 * passed its time limit (it is tried again); `account_unavailable` the account could not act;
 * `stopped` anything else stopped it (the raw reason kept); the rest are why setup could not start.
 */
export type TSetupOutcome =
  | { code: 'finished' }
  | { code: 'finished_with_failures'; failedSteps: number }
  | { code: 'ran_too_long' }
  | { code: 'account_unavailable'; reason: string }
  | { code: 'stopped'; reason: string }
  | { code: 'disconnected'; reason: string }
  | { code: 'reauthorization_required' }
  | { code: 'needs_configuration' }
  | { code: 'needs_setup_scopes'; granted: string; needed: string };

/** Zendesk's test of its webhook: `refused` names the connector's answer (`status`, 0 for none). */
export type TZendeskWebhookTest =
  | { outcome: 'delivered' }
  | { outcome: 'needs_permission' | 'no_webhook' | 'failed' }
  | { outcome: 'refused'; status: number };

/** The token after a run: Zendesk kept wider scopes, or it could not be narrowed at all. */
export type TSetupNarrowing =
  { code: 'kept_wider'; scope: string } | { code: 'not_narrowed'; scope: string; reason: string };

/** What a setup report adds in codes to its English `message`. */
export interface SetupOutcomeCodes {
  outcome: TSetupOutcome;
  /** Set when the run asked Zendesk to test its webhook and the delivery did not arrive. */
  webhookTest?: TZendeskWebhookTest;
  narrowing?: TSetupNarrowing;
}

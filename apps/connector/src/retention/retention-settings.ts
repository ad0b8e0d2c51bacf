/** The retention windows an operator sets (RECEIPT_, JOB_, RESOLVED_RETENTION_DAYS). */
export interface RetentionSettings {
  /** Webhook receipts, the dedupe ledger: at least the longest redelivery window. Default 7. */
  receiptDays: number;
  /** Finished pg-boss jobs (completed, failed, cancelled). Default 2. */
  jobDays: number;
  /** Resolved dead letters and reconciliation entries; not shorter than receiptDays. Default 30. */
  resolvedDays: number;
}

export const DEFAULT_RETENTION: RetentionSettings = {
  receiptDays: 7,
  jobDays: 2,
  resolvedDays: 30,
};

export const DAY_MS = 24 * 60 * 60 * 1000;

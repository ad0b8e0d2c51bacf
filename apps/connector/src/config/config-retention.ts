// The retention windows (RECEIPT_, JOB_, RESOLVED_RETENTION_DAYS) and the bounds they keep to.
import type { TEnv } from './config-env';
import { fail } from './config-error';
import { MIN_RECEIPT_RETENTION_DAYS, type RetentionSettings } from '../retention';

export function retentionOf(env: TEnv): RetentionSettings {
  const problems: string[] = [];
  if (env.RECEIPT_RETENTION_DAYS < MIN_RECEIPT_RETENTION_DAYS) {
    problems.push(
      `RECEIPT_RETENTION_DAYS: must be at least ${MIN_RECEIPT_RETENTION_DAYS}: receipts deduplicate ` +
        `webhook deliveries, and Zendesk and the incident service may deliver one again that late`,
    );
  }
  if (env.RESOLVED_RETENTION_DAYS < env.RECEIPT_RETENTION_DAYS) {
    problems.push(
      'RESOLVED_RETENTION_DAYS: must not be shorter than RECEIPT_RETENTION_DAYS: a resolved ' +
        "reconciliation entry names the retried report's delivery key while its first receipt is kept",
    );
  }
  if (problems.length > 0) fail(problems);
  return {
    receiptDays: env.RECEIPT_RETENTION_DAYS,
    jobDays: env.JOB_RETENTION_DAYS,
    resolvedDays: env.RESOLVED_RETENTION_DAYS,
  };
}

// Every table's retention, in one place. A row goes only once no reader can need it: each window is
// the one its readers look back over, or longer. The tables without a rule keep their rows, each
// for a reason (README.md of this folder).
import { TICKET_EVENT_QUEUE, TICKET_WRITE_QUEUE } from '../jobs';
import { ECHO_RETENTION_MS } from '../sync';
import type { RetentionRule } from './delete-in-batches';
import { DAY_MS, type RetentionSettings } from './retention-settings';

/** A written ticket change is kept two days, so a redelivered event is recognised by its reference. */
const SETTLED_CHANGE_RETENTION_MS = 2 * DAY_MS;

/** An action request row guards its job's retries; it goes a day after, once that job is gone. */
const ACTION_REQUEST_MIN_AGE_MS = DAY_MS;

const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

const before = (ms: number) => (now: Date) => new Date(now.getTime() - ms);

/** Rows whose `column` (indexed) is before the cutoff, oldest first. */
function olderThan(table: string, column: string, ms: number): RetentionRule {
  return { table, key: ['id'], orderBy: column, expired: `t.${column} < $1`, cutoff: before(ms) };
}

export function retentionRules(
  settings: RetentionSettings,
  /** pg-boss's schema (defaultJobQueueSchema). */
  jobSchema: string,
): RetentionRule[] {
  const jobTable = `"${jobSchema.replace(/"/g, '""')}".job`;
  return [
    // the dedupe ledger: longer than every redelivery window (RECEIPT_RETENTION_DAYS checks it)
    olderThan('webhook_receipt', 'received_at', settings.receiptDays * DAY_MS),
    {
      // the echo ledger: its recognisers look back ECHO_RETENTION_MS only (the contract's "a day or
      // two"); an absorbed entry also names its echo's event, kept as long again so that event
      // applied again is still recognised. An unsettled entry stopped counting after a minute.
      table: 'echo_ledger',
      key: ['id'],
      orderBy: 'sent_at',
      expired: 't.sent_at < $1 AND (t.echoed_at IS NULL OR t.echoed_at < $1)',
      cutoff: before(ECHO_RETENTION_MS),
    },
    {
      // written, or refused for good with no dead letter left to retry it (a retry from the
      // sidebar finds the rows by the unresolved failure's events); unsent rows are the writer's queue
      table: 'pending_ticket_change',
      key: ['id'],
      orderBy: 'created_at',
      expired: `t.created_at < $1 AND (t.written_at IS NOT NULL OR (
        t.failed_reason IS NOT NULL AND NOT EXISTS (
          SELECT 1 FROM sync_failure f
          WHERE f.account_id = t.account_id AND f.ticket_id = t.ticket_id
            AND f.queue = '${TICKET_WRITE_QUEUE}' AND f.resolved_at IS NULL
            AND f.payload -> 'events' @> jsonb_build_array(t.event_ref))))`,
      cutoff: before(SETTLED_CHANGE_RETENTION_MS),
    },
    {
      // read only by the job whose id is its receipt id, on its retries (a failed job retried from
      // the admin page keeps its id): kept while that job exists in pg-boss
      table: 'incident_action_request',
      key: ['account_id', 'receipt_id'],
      orderBy: 'created_at',
      expired: `t.created_at < $1 AND NOT EXISTS (
        SELECT 1 FROM ${jobTable} j
        WHERE j.name = '${TICKET_EVENT_QUEUE}'
          AND j.id = CASE WHEN t.receipt_id ~* '${UUID_PATTERN}' THEN t.receipt_id::uuid END)`,
      cutoff: before(ACTION_REQUEST_MIN_AGE_MS),
    },
    // dead letters retried or settled; unresolved ones stay for the admin page and the sidebar
    olderThan('sync_failure', 'resolved_at', settings.resolvedDays * DAY_MS),
    // a resolved entry's time keys the retried report's delivery (enqueueReport): kept while the
    // first report's receipt may be, which the settings guarantee (RESOLVED >= RECEIPT days)
    olderThan(
      'reconciliation_entry',
      'resolved_at',
      Math.max(settings.resolvedDays, settings.receiptDays) * DAY_MS,
    ),
  ];
}

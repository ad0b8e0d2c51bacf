// Where the account writers' failures and successes become the account's write health
// (account_health.ticket_write_*): a failure with a cause starts or continues the failing run, a
// write Zendesk accepted ends it. The writer calls in and moves on; the records of one account are
// stored in the order they were told, so a success is never overtaken by the failure before it.
import { ACCESS_CAUSES } from '@incident-desk/admin-contract';
import type { TDatabase } from '@incident-desk/db';
import { writeFailureOf } from './write-failure-cause';

export interface WriteHealthRecorder {
  /** A write (or the pass before it) failed: recorded when the error names a cause. */
  failed: (accountId: string, error: unknown) => void;
  /** Zendesk accepted a write of the account: the failing run, if any, is over. */
  succeeded: (accountId: string) => void;
  /** Resolves once everything told so far is stored (tests, shutdown). */
  settled: () => Promise<void>;
}

export interface WriteHealthRecorderOptions {
  now?: () => Date;
  log?: (message: string) => void;
  /**
   * How long a success that found nothing to clear spares the next ones the database: another
   * instance may have become the account's writer and recorded a failure meanwhile. Default 60 s.
   */
  knownClearMs?: number;
}

const DETAIL_MAX = 200;

// The recorded run goes on (the new failure keeps its start) while a change that waited at its
// latest failure still waits, or its cause waits for an administrator: the same rule as
// write-health-report.ts's ongoingFailure. Otherwise the run ended unseen (its note was found on
// the ticket after all) and this failure starts a new one.
const RUN_GOES_ON = `h.ticket_write_failing_since IS NOT NULL
  AND (h.ticket_write_failure_cause = ANY($6::text[])
    OR EXISTS (SELECT 1 FROM pending_ticket_change p
                WHERE p.account_id = h.account_id AND p.written_at IS NULL
                  AND p.failed_reason IS NULL
                  AND p.created_at <= COALESCE(h.ticket_write_failed_at, h.ticket_write_failing_since)))`;

export function writeHealthRecorder(
  db: TDatabase,
  options: WriteHealthRecorderOptions = {},
): WriteHealthRecorder {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((message: string) => console.error(message));
  const knownClearMs = options.knownClearMs ?? 60_000;
  const chains = new Map<string, Promise<void>>();
  /** Accounts this process last saw succeed, and when it cleared them. */
  const clearedAt = new Map<string, number>();

  function enqueue(accountId: string, work: () => Promise<void>): void {
    const previous = chains.get(accountId) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error: unknown) => {
        clearedAt.delete(accountId);
        log(
          `write health of account ${accountId}: ${error instanceof Error ? error.message : String(error)}`,
        );
      })
      .finally(() => {
        if (chains.get(accountId) === next) chains.delete(accountId);
      });
    chains.set(accountId, next);
  }

  return {
    failed(accountId, error) {
      const failure = writeFailureOf(error);
      if (failure === null) return;
      clearedAt.delete(accountId);
      const at = now();
      enqueue(accountId, async () => {
        await db.prisma.$executeRawUnsafe(
          `INSERT INTO account_health AS h (account_id, ticket_write_failing_since,
               ticket_write_failed_at, ticket_write_failure_cause, ticket_write_failure_status,
               ticket_write_failure_detail, updated_at)
           VALUES ($1::uuid, $2::timestamptz, $2::timestamptz, $3, $4::int, $5, $2::timestamptz)
           ON CONFLICT (account_id) DO UPDATE SET
             ticket_write_failing_since = CASE WHEN ${RUN_GOES_ON} THEN h.ticket_write_failing_since
               ELSE EXCLUDED.ticket_write_failing_since END,
             ticket_write_failed_at = EXCLUDED.ticket_write_failed_at,
             ticket_write_failure_cause = EXCLUDED.ticket_write_failure_cause,
             ticket_write_failure_status = EXCLUDED.ticket_write_failure_status,
             ticket_write_failure_detail = EXCLUDED.ticket_write_failure_detail,
             updated_at = EXCLUDED.updated_at`,
          accountId,
          at.toISOString(),
          failure.cause,
          failure.status,
          failure.detail?.slice(0, DETAIL_MAX) ?? null,
          [...ACCESS_CAUSES],
        );
      });
    },
    succeeded(accountId) {
      const cleared = clearedAt.get(accountId);
      const at = now();
      if (cleared !== undefined && at.getTime() - cleared < knownClearMs) return;
      clearedAt.set(accountId, at.getTime());
      enqueue(accountId, () => clearWriteFailure(db, accountId, at));
    },
    async settled() {
      while (chains.size > 0) await Promise.all([...chains.values()]);
    },
  };
}

/**
 * Ends the account's failing run, if one is recorded. Its latest failure stays: the account
 * recovers while changes that waited at it still wait (write-health-report.ts).
 */
export async function clearWriteFailure(
  db: TDatabase,
  accountId: string,
  at: Date,
  causes?: readonly string[],
): Promise<void> {
  await db.prisma.accountHealth.updateMany({
    where: {
      accountId,
      ticketWriteFailingSince: { not: null },
      ...(causes ? { ticketWriteFailureCause: { in: [...causes] } } : {}),
    },
    data: {
      ticketWriteFailingSince: null,
      ticketWriteFailureCause: null,
      ticketWriteFailureStatus: null,
      ticketWriteFailureDetail: null,
      updatedAt: at,
    },
  });
}

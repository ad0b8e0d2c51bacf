// The tickets a pass of the account's writer may write now: changes ready, not leased to a request
// under way, within each ticket's budget; and when the rest may next be written.
import { querySql, type TDatabase } from '@incident-desk/db';
import type { DrainOptions } from './drain-options';
import { ticketsBlockedUntil } from './write-budget';

export interface WritableTickets {
  /** Oldest waiting change first. */
  eligible: bigint[];
  /** When something waiting that is not eligible may next be written; null when nothing waits. */
  nextAt: Date | null;
}

/**
 * Per ticket with waiting changes: its earliest ready time and record time, and when the lease of
 * the changes a request still carries ends (null when none is leased). Changes an update_many job
 * carries stay with it until a pass reads that the job finished (settleQueuedJobs); those of a
 * single update until their lease ends (ignored by the inline path, $3). One statement: every pass
 * reads it.
 */
const WAITING_SQL = `
  SELECT ticket_id AS "ticketId", min(ready_at) AS "readyAt", min(created_at) AS "createdAt",
         max(ready_at) FILTER (
           WHERE write_ref IS NOT NULL
             AND (write_job_id IS NOT NULL OR (NOT $3::boolean AND ready_at > $2::timestamptz))
         ) AS "leasedUntil"
    FROM pending_ticket_change
   WHERE account_id = $1::uuid AND written_at IS NULL AND failed_reason IS NULL
   GROUP BY ticket_id`;

interface WaitingTicket {
  ticketId: bigint;
  readyAt: Date;
  createdAt: Date;
  leasedUntil: Date | null;
}

async function waitingTickets(
  db: TDatabase,
  accountId: string,
  now: Date,
  ignoreReadyAt: boolean,
): Promise<WaitingTicket[]> {
  const rows = await querySql<{
    ticketId: string | number | bigint;
    readyAt: Date;
    createdAt: Date;
    leasedUntil: Date | null;
  }>(db, WAITING_SQL, [accountId, now.toISOString(), ignoreReadyAt]);
  return rows.map((row) => ({ ...row, ticketId: BigInt(row.ticketId) }));
}

export async function writableTickets(
  db: TDatabase,
  accountId: string,
  now: Date,
  options: DrainOptions,
): Promise<WritableTickets> {
  const waiting = await waitingTickets(db, accountId, now, options.ignoreReadyAt ?? false);
  if (waiting.length === 0) return { eligible: [], nextAt: null };
  const ready = waiting
    .filter(
      (w) =>
        w.leasedUntil === null && (options.ignoreReadyAt || w.readyAt.getTime() <= now.getTime()),
    )
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  let nextAt: Date | null = earliest(
    waiting.flatMap((w) =>
      w.leasedUntil !== null ? [w.leasedUntil] : ready.includes(w) ? [] : [w.readyAt],
    ),
  );
  if (ready.length === 0) return { eligible: [], nextAt };

  const blocked = await ticketsBlockedUntil(
    db,
    accountId,
    ready.map((w) => w.ticketId),
    options.limits,
    now,
  );
  nextAt = earliest([...(nextAt ? [nextAt] : []), ...blocked.values()]);
  return { eligible: ready.filter((w) => !blocked.has(w.ticketId)).map((w) => w.ticketId), nextAt };
}

function earliest(dates: Date[]): Date | null {
  if (dates.length === 0) return null;
  return new Date(Math.min(...dates.map((d) => d.getTime())));
}

// "Retry now" on the admin page: the account's put-off ticket changes become due at once
// (sync/ticket-writes/make-changes-due.ts); a pause Zendesk asked for still holds, and is named.
import type { TDatabase } from '@incident-desk/db';
import { makePutOffChangesDue, writesPausedUntil } from '../sync';

export interface TicketWriteRetry {
  /** Changes made due now. */
  woken: number;
  /** Zendesk asked to wait until then (a 429): nothing is written before. */
  pausedUntil: string | null;
}

export async function retryTicketWritesNow(
  db: TDatabase,
  accountId: string,
  now: Date,
): Promise<TicketWriteRetry> {
  const [woken, pausedUntil] = await Promise.all([
    makePutOffChangesDue(db, { accountId }, now),
    writesPausedUntil(db, accountId, now),
  ]);
  return { woken, pausedUntil: pausedUntil?.toISOString() ?? null };
}

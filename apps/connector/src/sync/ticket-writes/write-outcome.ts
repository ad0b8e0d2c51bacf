// What a pass records once Zendesk answered a write: written, to be looked for again, paused, or
// refused for good (a follow-up ticket, else a dead letter).
import type { TDatabase } from '@incident-desk/db';
import {
  ZendeskForbiddenError,
  ZendeskRateLimitedError,
  ZendeskRecordInvalidError,
  ZendeskRecordNotFoundError,
} from '@incident-desk/zendesk-api';
import { TICKET_WRITE_QUEUE } from '../../jobs';
import { type AccountContext, isUnansweredZendeskRequest } from '../../accounts';
import { rateLimitDefaultMs, unsureRetryAt, type DrainOptions } from './drain-options';
import { followUpClosedTicket, isClosedRefusal } from './follow-up-closed-ticket';
import type { TicketBatch } from './ticket-batch';
import { rateLimitedOr, TicketRateLimited } from './send-ticket-update';

export async function markWritten(
  db: TDatabase,
  batch: TicketBatch,
  at: Date,
  options: DrainOptions,
): Promise<void> {
  await db.prisma.pendingTicketChange.updateMany({
    where: { id: { in: batch.rows.map((row) => row.id) }, writtenAt: null },
    data: { writtenAt: at },
  });
  options.onWritten?.(batch.rows, at);
}

/** The batch's changes wait until then (and are looked for first, like any sent change). */
async function holdUntil(db: TDatabase, batch: TicketBatch, until: Date): Promise<void> {
  await db.prisma.pendingTicketChange.updateMany({
    where: { id: { in: batch.rows.map((row) => row.id) }, writtenAt: null },
    data: { readyAt: until },
  });
}

/** Unsure whether Zendesk applied it: the note is looked for after a short wait. */
export async function retryLater(
  db: TDatabase,
  batch: TicketBatch,
  options: DrainOptions,
): Promise<void> {
  await db.prisma.pendingTicketChange.updateMany({
    where: { id: { in: batch.rows.map((row) => row.id) }, writtenAt: null },
    data: { readyAt: unsureRetryAt(options) },
  });
}

/**
 * Zendesk refused the change for good. A closed ticket with a note waiting gets a follow-up that
 * carries it (follow-up-closed-ticket.ts); anything else is a dead letter for admins.
 */
export async function refuse(
  ctx: AccountContext,
  db: TDatabase,
  batch: TicketBatch,
  reason: string,
  closed: 'known' | 'maybe' | 'no',
  options: DrainOptions,
): Promise<boolean> {
  if (closed !== 'no') {
    try {
      const followUp = await followUpClosedTicket(
        ctx,
        db,
        batch.ticketId,
        batch.rows,
        batch.writeRef,
        options.now(),
        closed === 'known',
      );
      if (followUp !== null) return true;
    } catch (error) {
      if (isUnansweredZendeskRequest(error) || error instanceof ZendeskRateLimitedError) {
        // the follow-up may or may not exist: the next pass is refused again and asks again
        // with the same idempotency key, so it never opens a second one
        await retryLater(db, batch, options);
        return false;
      }
      reason = `${reason}; follow-up refused: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  await failForGood(ctx, db, batch, reason);
  return false;
}

/** Zendesk refused the change for good (a closed or deleted ticket): a dead letter for admins. */
async function failForGood(
  ctx: AccountContext,
  db: TDatabase,
  batch: TicketBatch,
  reason: string,
): Promise<void> {
  await db.prisma.pendingTicketChange.updateMany({
    where: { id: { in: batch.rows.map((row) => row.id) }, writtenAt: null },
    data: { failedReason: reason },
  });
  await db.prisma.syncFailure.create({
    data: {
      accountId: ctx.accountId,
      queue: TICKET_WRITE_QUEUE,
      jobId: `${TICKET_WRITE_QUEUE}:${batch.writeRef}`,
      ticketId: batch.ticketId,
      incidentId: batch.rows[0]?.incidentId ?? null,
      reason,
      payload: { ticketId: Number(batch.ticketId), events: batch.rows.map((row) => row.eventRef) },
    },
  });
}

export async function handleError(
  ctx: AccountContext,
  db: TDatabase,
  batches: TicketBatch[],
  error: unknown,
  options: DrainOptions,
): Promise<void> {
  // a 429 of a job's status read holds writes back as a send's 429 does (send-ticket-update.ts)
  const failure =
    error instanceof ZendeskRateLimitedError
      ? await rateLimitedOr(ctx, db, error, batches, {
          now: options.now,
          defaultDelayMs: rateLimitDefaultMs(options),
        })
      : error;
  if (failure instanceof TicketRateLimited) {
    options.onWriteFailure?.(ctx.accountId, failure.answer);
    // nothing was applied; the changes keep their reference and are looked for, then written:
    // after the account's pause, or (the ticket's own limit) after this ticket's wait
    if (!failure.accountPaused) await holdUntil(db, batches[0]!, failure.until);
    return;
  }
  options.onWriteFailure?.(ctx.accountId, error);
  if (isUnansweredZendeskRequest(error)) {
    for (const batch of batches) await retryLater(db, batch, options);
    return;
  }
  if (
    error instanceof ZendeskRecordInvalidError ||
    error instanceof ZendeskRecordNotFoundError ||
    error instanceof ZendeskForbiddenError
  ) {
    const closed = isClosedRefusal(error)
      ? 'known'
      : error instanceof ZendeskRecordInvalidError
        ? 'maybe'
        : 'no';
    for (const batch of batches) await refuse(ctx, db, batch, error.message, closed, options);
    return;
  }
  throw error;
}

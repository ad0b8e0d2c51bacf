// Every change the connector makes to a ticket outside the drain (ticket-writes/) goes through
// here: one update carrying the note, fields, tags and status together (one API call, one trigger
// firing). Like the drain's, each update is counted in the account's shared budget before it is
// sent (ticket-writes/write-budget.ts) and never waits: when the account is paused after a 429, or
// its minute or the ticket's ten minutes are spent, or Zendesk answers 429 (the account is then
// paused for its Retry-After), the write throws a TicketWriteDeferred. A job hands its slot back
// with it (a JobDeferral); the sidebar and admin routes answer retry_later. The update is sent by
// the sender both writers share (ticket-writes/send-ticket-update.ts): it marks the note, records its
// echo BEFORE the update (the comment trigger it fires can arrive first) and turns a 429 into the
// account's pause.
import type { TDatabase } from '@incident-desk/db';
import type { AccountContext } from '../accounts';
import { DEFAULT_RATE_LIMIT_DELAY_MS } from '../jobs';
import { normalizeText } from '../notes';
import { isRecordedOwnNote } from './echo-ledger';
import {
  NOTE_MARKER,
  sendTicketUpdate,
  TicketWriteDeferred,
  ticketUpdateOf,
  type TicketChange,
} from './ticket-writes/send-ticket-update';
import {
  PRIORITY_WRITE_LIMITS,
  releaseTicketBudget,
  reserveTicketUpdate,
  ZENDESK_WRITE_LIMITS,
} from './ticket-writes/write-budget';

export {
  markNote,
  NOTE_MARKER,
  TicketWriteDeferred,
  type TicketChange,
  type TicketStatus,
} from './ticket-writes/send-ticket-update';

export interface TicketWriteOptions {
  /**
   * An agent waits for this write (a report's link, an action's tag swap, a sidebar or admin
   * action): it may use Zendesk's whole budget (PRIORITY_WRITE_LIMITS), the head-room the drain
   * leaves. Other writes keep to the drain's margins (ZENDESK_WRITE_LIMITS).
   */
  priority: boolean;
  now?: (() => Date) | undefined;
}

/** An update of one ticket already counted in the account's budget: sending it is all that is left. */
export interface ReservedTicketWrite {
  send(change: TicketChange): Promise<void>;
}

/**
 * Counts one update of the ticket in the account's budget, or throws TicketWriteDeferred. A flow
 * that must change something durable before the update (a link saved, a queue entry resolved)
 * reserves first, so the budget's refusal comes while nothing has changed yet.
 */
export async function reserveTicketWrite(
  ctx: AccountContext,
  db: TDatabase,
  ticketId: number,
  options: TicketWriteOptions,
): Promise<ReservedTicketWrite> {
  const now = options.now ?? (() => new Date());
  const at = now();
  const limits = options.priority ? PRIORITY_WRITE_LIMITS : ZENDESK_WRITE_LIMITS;
  const reservation = await reserveTicketUpdate(db, ctx.accountId, BigInt(ticketId), limits, at);
  if ('notBefore' in reservation)
    throw new TicketWriteDeferred(
      reservation.notBefore.getTime() - at.getTime(),
      `ticket ${ticketId} cannot be updated before ${reservation.notBefore.toISOString()} (the account's Zendesk update budget or a 429's pause)`,
    );
  return {
    send: async (change) => {
      try {
        // the only direct ticket update of the connector; a 429 is never waited out, it pauses
        await sendTicketUpdate(ctx, db, ticketUpdateOf(ticketId, change), {
          now,
          defaultDelayMs: DEFAULT_RATE_LIMIT_DELAY_MS,
          retry: { retryRateLimited: false },
        });
      } catch (error) {
        await releaseTicketBudget(db, ctx.accountId, reservation.requestId);
        throw error;
      }
    },
  };
}

export async function updateTicket(
  ctx: AccountContext,
  db: TDatabase,
  ticketId: number,
  change: TicketChange,
  options: TicketWriteOptions,
): Promise<void> {
  await (await reserveTicketWrite(ctx, db, ticketId, options)).send(change);
}

/**
 * Whether a ticket comment is one of the connector's own notes: it starts with the marker, or its
 * text matches a note written on this ticket recently. The author id is not used: the connector's
 * Zendesk user may also be a human agent whose replies must be forwarded.
 */
export async function isOwnNote(
  db: TDatabase,
  accountId: string,
  ticketId: number,
  text: string,
  now = new Date(),
): Promise<boolean> {
  const normalized = normalizeText(text);
  if (normalized.startsWith(NOTE_MARKER)) return true;
  return isRecordedOwnNote(db, accountId, ticketId, normalized, now);
}

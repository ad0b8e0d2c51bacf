// Every change the connector makes to a ticket outside the drain (ticket-writes/) goes through
// here: one update carrying the note, fields, tags and status together (one API call, one trigger
// firing). Like the drain's, each update is counted in the account's shared budget before it is
// sent (ticket-writes/write-budget.ts) and never waits: when the account is paused after a 429, or
// its minute or the ticket's ten minutes are spent, or Zendesk answers 429 (the account is then
// paused for its Retry-After), the write throws a TicketWriteDeferred. A job hands its slot back
// with it (a JobDeferral); the sidebar and admin routes answer retry_later. The note is marked and
// its text recorded BEFORE the update, because the comment trigger it fires can arrive first.
import type { TDatabase } from '@incident-desk/db';
import { ZendeskRateLimitedError } from '@incident-desk/zendesk-api';
import type { AccountContext } from '../accounts/account-context';
import { DEFAULT_RATE_LIMIT_DELAY_MS, JobDeferral } from '../jobs/job-deferral';
import { normalizeText } from '../notes/normalize';
import { isRecordedOwnNote, recordOwnNote } from './echo-ledger';
import {
  isTicketOwnLimit,
  pauseAccount,
  PRIORITY_WRITE_LIMITS,
  releaseTicketBudget,
  reserveTicketUpdate,
  ZENDESK_WRITE_LIMITS,
} from './ticket-writes/write-budget';

/** Starts every note the connector writes, so neither side mistakes it for an agent's words. */
export const NOTE_MARKER = '[incident-desk]';

export type TicketStatus = 'new' | 'open' | 'pending' | 'hold' | 'solved';

export interface TicketChange {
  /** Internal note text, without the marker. */
  note?: string;
  fields?: { id: number; value: string | null }[];
  addTags?: string[];
  removeTags?: string[];
  status?: TicketStatus;
  assigneeId?: number | null;
}

export function markNote(text: string): string {
  return `${NOTE_MARKER} ${text}`;
}

export interface TicketWriteOptions {
  /**
   * An agent waits for this write (a report's link, an action's tag swap, a sidebar or admin
   * action): it may use Zendesk's whole budget (PRIORITY_WRITE_LIMITS), the head-room the drain
   * leaves. Other writes keep to the drain's margins (ZENDESK_WRITE_LIMITS).
   */
  priority: boolean;
  now?: (() => Date) | undefined;
}

/** Zendesk cannot take the ticket's update now: nothing was sent; try again after `delayMs`. */
export class TicketWriteDeferred extends JobDeferral {
  override name = 'TicketWriteDeferred';

  /** Whole seconds, at least one: what an HTTP answer's Retry-After says. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.delayMs / 1000));
  }
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
        await sendUpdate(ctx, db, ticketId, change, now);
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

async function sendUpdate(
  ctx: AccountContext,
  db: TDatabase,
  ticketId: number,
  change: TicketChange,
  now: () => Date,
): Promise<void> {
  const body = change.note === undefined ? undefined : markNote(change.note);
  if (body !== undefined) {
    await recordOwnNote(db.prisma, ctx.accountId, ticketId, body);
  }
  try {
    // the only direct ticket update of the connector (the drain has its own); a 429 is never
    // waited out here, it pauses the account
    await ctx.zendesk.tickets.update(
      ticketId,
      {
        ...(body === undefined ? {} : { comment: { body, public: false } }),
        ...(change.fields?.length ? { custom_fields: change.fields } : {}),
        ...(change.addTags?.length ? { additional_tags: change.addTags } : {}),
        ...(change.removeTags?.length ? { remove_tags: change.removeTags } : {}),
        ...(change.status === undefined ? {} : { status: change.status }),
        ...(change.assigneeId === undefined ? {} : { assignee_id: change.assigneeId }),
      },
      { retryRateLimited: false },
    );
  } catch (error) {
    if (!(error instanceof ZendeskRateLimitedError)) throw error;
    const delayMs =
      error.retryAfterSeconds === undefined
        ? DEFAULT_RATE_LIMIT_DELAY_MS
        : error.retryAfterSeconds * 1000;
    // the ticket's own limit waits in this job alone; any other holds back the account's writes
    if (!isTicketOwnLimit(error.retryAfterSeconds))
      await pauseAccount(db, ctx.accountId, new Date(now().getTime() + delayMs));
    throw new TicketWriteDeferred(
      delayMs,
      `Zendesk refused the update of ticket ${ticketId} (429)`,
    );
  }
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

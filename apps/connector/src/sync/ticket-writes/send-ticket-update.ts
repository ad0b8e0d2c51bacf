// The one sender of ticket updates, for both writers: the direct update (../ticket-writer.ts) and
// the drain's single update or update_many (send-ticket-writes.ts). Every note it sends starts with
// the marker (markNote); the note's echo is recorded BEFORE the request, because the comment
// trigger the update fires can arrive before the answer. A 429 is never waited out here: it holds
// back the account's writes for its Retry-After (only the ticket's own limit, on a one-ticket
// update, holds back that ticket alone) and is thrown as a TicketRateLimited. Nothing is counted
// in the account's budget here: the caller counted the request before sending it and gives it back
// when the send fails, so a failed write never uses a ticket's 30 updates per 10 minutes.
import { querySql, type TDatabase } from '@incident-desk/db';
import {
  ZendeskRateLimitedError,
  type TJobStatus,
  type TTicketUpdateInput,
  type ZendeskRequestOptions,
} from '@incident-desk/zendesk-api';
import type { AccountContext } from '../../accounts';
import { JobDeferral } from '../../jobs';
import { recordOwnNotesSql } from '../echo-ledger';
import { isTicketOwnLimit, pauseAccount } from './write-budget';

/** Starts every note the connector writes, so neither side mistakes it for an agent's words. */
export const NOTE_MARKER = '[incident-desk]';

export function markNote(text: string): string {
  return `${NOTE_MARKER} ${text}`;
}

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

/** One ticket's update as it is sent. */
export interface TicketUpdate {
  ticketId: number | bigint;
  /** The marked note the update carries, if any (its echo is recorded before sending). */
  body: string | undefined;
  input: TTicketUpdateInput;
}

/** Zendesk cannot take the ticket's update now: nothing was sent; try again after `delayMs`. */
export class TicketWriteDeferred extends JobDeferral {
  override name = 'TicketWriteDeferred';

  /** Whole seconds, at least one: what an HTTP answer's Retry-After says. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.delayMs / 1000));
  }
}

/** Zendesk answered 429: nothing was applied; the account's writes, or this ticket's, wait until `until`. */
export class TicketRateLimited extends TicketWriteDeferred {
  constructor(
    delayMs: number,
    reason: string,
    readonly until: Date,
    /** False when only the ticket's own limit was reached: the caller holds back that ticket. */
    readonly accountPaused: boolean,
    readonly answer: ZendeskRateLimitedError,
  ) {
    super(delayMs, reason);
  }
}

export interface SendOptions {
  now: () => Date;
  /** The wait a 429 without Retry-After asks for. */
  defaultDelayMs: number;
  /** A re-send of an update whose echo was recorded when it was first sent. */
  echoRecorded?: boolean;
  /** How the client may retry this request; a 429 is never retried (it pauses the account). */
  retry: RetryOptions;
}

type RetryOptions = Pick<ZendeskRequestOptions, 'maxRetries' | 'retryRateLimited'>;

/** A direct change as its update: the note marked, everything in one request (one trigger firing). */
export function ticketUpdateOf(ticketId: number, change: TicketChange): TicketUpdate {
  const body = change.note === undefined ? undefined : markNote(change.note);
  return {
    ticketId,
    body,
    input: {
      ...(body === undefined ? {} : { comment: { body, public: false } }),
      ...(change.fields?.length ? { custom_fields: change.fields } : {}),
      ...(change.addTags?.length ? { additional_tags: change.addTags } : {}),
      ...(change.removeTags?.length ? { remove_tags: change.removeTags } : {}),
      ...(change.status === undefined ? {} : { status: change.status }),
      ...(change.assigneeId === undefined ? {} : { assignee_id: change.assigneeId }),
    },
  };
}

/** PUT one ticket's update. */
export async function sendTicketUpdate(
  ctx: AccountContext,
  db: TDatabase,
  update: TicketUpdate,
  options: SendOptions,
): Promise<void> {
  if (!options.echoRecorded) await recordEchoes(ctx, db, [update]);
  try {
    await ctx.zendesk.tickets.update(Number(update.ticketId), update.input, options.retry);
  } catch (error) {
    throw await rateLimitedOr(ctx, db, error, [update], options);
  }
}

/** Queues several tickets' updates as one update_many: the job Zendesk answered. */
export async function queueTicketUpdates(
  ctx: AccountContext,
  db: TDatabase,
  updates: readonly TicketUpdate[],
  options: SendOptions,
): Promise<TJobStatus> {
  if (!options.echoRecorded) await recordEchoes(ctx, db, updates);
  try {
    return await ctx.zendesk.tickets.updateMany(
      updates.map((update) => ({ id: Number(update.ticketId), ...update.input })),
      options.retry,
    );
  } catch (error) {
    throw await rateLimitedOr(ctx, db, error, updates, options);
  }
}

async function recordEchoes(
  ctx: AccountContext,
  db: TDatabase,
  updates: readonly TicketUpdate[],
): Promise<void> {
  const notes = updates.flatMap(({ ticketId, body }) =>
    body === undefined ? [] : [{ ticketId, body }],
  );
  const sql = { executeSql: (text: string, values?: unknown[]) => querySql(db, text, values) };
  await recordOwnNotesSql(sql, ctx.accountId, notes);
}

/**
 * The error a failed request is thrown as: a 429 holds back the account's writes (or, for one
 * ticket's own limit, that ticket's) and becomes a TicketRateLimited; any other error is itself.
 */
export async function rateLimitedOr(
  ctx: AccountContext,
  db: TDatabase,
  error: unknown,
  updates: readonly Pick<TicketUpdate, 'ticketId'>[],
  options: Pick<SendOptions, 'now' | 'defaultDelayMs'>,
): Promise<unknown> {
  if (!(error instanceof ZendeskRateLimitedError)) return error;
  const seconds = error.retryAfterSeconds;
  const delayMs = seconds === undefined ? options.defaultDelayMs : seconds * 1000;
  const until = new Date(options.now().getTime() + delayMs);
  // the ticket's own limit waits for that ticket alone; any other holds back the account's writes
  const ownLimit = updates.length === 1 && isTicketOwnLimit(seconds);
  if (!ownLimit) await pauseAccount(db, ctx.accountId, until);
  const named = updates.length === 1 ? `ticket ${updates[0]!.ticketId}` : 'tickets';
  const reason = `Zendesk refused the update of ${named} (429)`;
  return new TicketRateLimited(delayMs, reason, until, !ownLimit, error);
}

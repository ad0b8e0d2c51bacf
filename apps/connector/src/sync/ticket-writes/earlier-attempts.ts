// Changes an earlier request carried: written when the ticket shows that request's reference.
import type { TDatabase } from '@incident-desk/db';
import { ZendeskForbiddenError } from '@incident-desk/zendesk-api';
import type { AccountContext } from '../../accounts/account-context';
import { unsureRetryAt, type DrainOptions } from './drain-options';
import { countLandedUpdates } from './write-budget';
import { textCarriesRef, writeMetadataOf } from './write-metadata';

/**
 * A ticket whose changes an earlier request carried (no job pending): the changes still to write,
 * without those whose write landed. When the write's audit must be read and cannot be (the token
 * lost the global `read` scope), nothing is written again: the changes wait, and the failure is
 * told to write health.
 */
export async function settleEarlierAttempts<
  T extends { id: string; writeRef: string | null; writeRefInNote: boolean },
>(
  ctx: AccountContext,
  db: TDatabase,
  ticketId: bigint,
  rows: T[],
  options: DrainOptions,
): Promise<T[]> {
  const attempted = new Map<string, boolean>();
  for (const row of rows)
    if (row.writeRef !== null)
      attempted.set(row.writeRef, (attempted.get(row.writeRef) ?? true) && row.writeRefInNote);
  let landed: Set<string>;
  try {
    landed = await refsOnTicket(ctx, Number(ticketId), attempted);
  } catch (error) {
    if (!(error instanceof ZendeskForbiddenError)) throw error;
    options.onWriteFailure?.(ctx.accountId, error);
    await db.prisma.pendingTicketChange.updateMany({
      where: { id: { in: rows.map((row) => row.id) }, writtenAt: null },
      data: { readyAt: unsureRetryAt(options) },
    });
    return [];
  }
  if (landed.size === 0) return rows;
  const now = options.now();
  await db.prisma.pendingTicketChange.updateMany({
    where: { accountId: ctx.accountId, ticketId, writtenAt: null, writeRef: { in: [...landed] } },
    data: { writtenAt: now },
  });
  // Zendesk applied them after all, though their requests failed and gave the ticket its updates back
  await countLandedUpdates(db, ctx.accountId, ticketId, landed.size, now);
  return rows.filter((row) => row.writeRef === null || !landed.has(row.writeRef));
}

/**
 * The references (each with whether its note carries it) that landed on the ticket: read from
 * its audits (metadata, and the comments' text) when any reference lives only in metadata or the
 * token can read audits, else from its comments.
 */
async function refsOnTicket(
  ctx: AccountContext,
  ticketId: number,
  refs: ReadonlyMap<string, boolean>,
): Promise<Set<string>> {
  const found = new Set<string>();
  const lookFor = (text: string) => {
    for (const ref of refs.keys()) if (textCarriesRef(text, ref)) found.add(ref);
  };
  if (ctx.canReadAudits || [...refs.values()].some((inNote) => !inNote)) {
    for await (const audit of ctx.zendesk.tickets.audits.list(ticketId)) {
      const ref = writeMetadataOf(audit.metadata?.custom)?.ref;
      if (ref !== undefined && refs.has(ref)) found.add(ref);
      for (const event of audit.events)
        if (event.type === 'Comment' && typeof event.body === 'string') lookFor(event.body);
      if (found.size === refs.size) break;
    }
    return found;
  }
  const page = await ctx.zendesk.tickets.comments.list(ticketId, {
    sortOrder: 'desc',
    includeUsers: false,
  });
  for (const comment of page.getItems()) lookFor(comment.body ?? comment.plain_body ?? '');
  return found;
}

// Changes an earlier request carried: written when the ticket shows that request, by its audit's
// metadata or by its note (note-identity.ts).
import type { TDatabase } from '@incident-desk/db';
import { ZendeskForbiddenError } from '@incident-desk/zendesk-api';
import type { AccountContext } from '../../accounts';
import { unsureRetryAt, type DrainOptions } from './drain-options';
import { countLandedUpdates } from './write-budget';
import { writesFoundByNote, type NoteWrite } from './note-identity';
import { writeMetadataOf } from './write-metadata';

/** What a pending change recorded of the write that last carried it. */
export interface AttemptedChange {
  id: string;
  writeRef: string | null;
  writeFoundByNote: boolean;
  writeNoteDigest: string | null;
  writeSentAt: Date | null;
}

/**
 * A ticket whose changes an earlier request carried (no job pending): the changes still to write,
 * without those whose write landed. When the ticket cannot be read for them (the token lost the
 * global `read` scope an audit needs, or `users:read`), nothing is written again: the changes
 * wait, and the failure is told to write health.
 */
export async function settleEarlierAttempts<T extends AttemptedChange>(
  ctx: AccountContext,
  db: TDatabase,
  ticketId: bigint,
  rows: T[],
  options: DrainOptions,
): Promise<T[]> {
  let landed: Set<string>;
  try {
    landed = await writesOnTicket(ctx, Number(ticketId), attemptsOf(rows));
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

interface Attempts {
  /** Found by their audit's metadata. */
  byAudit: Set<string>;
  /** Found by their note. */
  byNote: NoteWrite[];
}

function attemptsOf(rows: readonly AttemptedChange[]): Attempts {
  const writes = new Map<string, AttemptedChange[]>();
  for (const row of rows)
    if (row.writeRef !== null) writes.set(row.writeRef, [...(writes.get(row.writeRef) ?? []), row]);
  const attempts: Attempts = { byAudit: new Set(), byNote: [] };
  for (const [ref, carried] of writes) {
    const first = carried[0]!;
    if (carried.every((row) => row.writeFoundByNote))
      attempts.byNote.push({ ref, digest: first.writeNoteDigest, sentAt: first.writeSentAt });
    else attempts.byAudit.add(ref);
  }
  return attempts;
}

/** The references of the earlier writes that landed on the ticket. */
async function writesOnTicket(
  ctx: AccountContext,
  ticketId: number,
  attempts: Attempts,
): Promise<Set<string>> {
  const found = await writesFoundByNote(ctx, ticketId, attempts.byNote);
  if (attempts.byAudit.size === 0) return found;
  for await (const audit of ctx.zendesk.tickets.audits.list(ticketId)) {
    const ref = writeMetadataOf(audit.metadata?.custom)?.ref;
    if (ref !== undefined && attempts.byAudit.has(ref)) found.add(ref);
    if ([...attempts.byAudit].every((each) => found.has(each))) break;
  }
  return found;
}

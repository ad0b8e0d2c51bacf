// A note telling an agent what already happened (files not sent as evidence, comments not
// forwarded) reports work that is finished and recorded: the job that did it will not do it again.
// So the note is kept (owed_ticket_note) until Zendesk has taken it. When its write is put off
// (TicketWriteDeferred: the account's budget, a 429), the job is handed back, and its next run, or
// any later job of the ticket, writes the notes still owed first (handle-ticket-event.ts).
import type { TDatabase } from '@incident-desk/db';
import type { AccountContext } from '../accounts';
import { updateTicket } from './ticket-writer';

export async function writeOwedNote(
  ctx: AccountContext,
  db: TDatabase,
  ticketId: number,
  text: string,
  now?: () => Date,
): Promise<void> {
  await db.prisma.owedTicketNote.create({
    data: { accountId: ctx.accountId, ticketId: BigInt(ticketId), text },
  });
  await payOwedNotes(ctx, db, ticketId, now);
}

/** Writes the notes the ticket is owed as one note, oldest first; nothing when none is owed. */
export async function payOwedNotes(
  ctx: AccountContext,
  db: TDatabase,
  ticketId: number,
  now?: () => Date,
): Promise<void> {
  const owed = await db.prisma.owedTicketNote.findMany({
    where: { accountId: ctx.accountId, ticketId: BigInt(ticketId) },
    orderBy: { createdAt: 'asc' },
    select: { id: true, text: true },
  });
  if (owed.length === 0) return;
  await updateTicket(
    ctx,
    db,
    ticketId,
    { note: owed.map((note) => note.text).join('\n\n') },
    { priority: false, now },
  );
  await db.prisma.owedTicketNote.deleteMany({ where: { id: { in: owed.map((note) => note.id) } } });
}

// At most one note per event and ticket, also when a job is retried after the update went through
// but before the job completed (a lost response, a crash), and when a duplicate of the event that
// opened the ticket arrives. Every event note ends with the event reference; the own-note record
// written before each update tells whether an earlier attempt got that far, and only then is the
// ticket itself read to see whether the note landed. The normal path stays at one Zendesk call.
import type { TDatabase } from '@incident-desk/db';
import type { AccountContext } from '../../accounts/account-context';
import { eventReferenceLine } from '../../notes/event-note-footer';
import { normalizeText } from '../../notes/normalize';
import { OWN_NOTE_RETENTION_MS, updateTicket, type TicketChange } from '../ticket-writer';

export type EventUpdateResult = 'written' | 'already_written';

export async function writeEventUpdate(
  ctx: AccountContext,
  db: TDatabase,
  ticketId: number,
  change: TicketChange & { note: string },
  eventRef: string,
  now: Date,
): Promise<EventUpdateResult> {
  const ending = `\n${eventReferenceLine(eventRef)}`;
  const attempted = await db.prisma.ownNote.findFirst({
    where: {
      accountId: ctx.accountId,
      ticketId: BigInt(ticketId),
      text: { endsWith: ending },
      createdAt: { gte: new Date(now.getTime() - OWN_NOTE_RETENTION_MS) },
    },
    select: { id: true },
  });
  if (attempted && (await ticketHasNoteEndingWith(ctx, ticketId, ending))) return 'already_written';
  await updateTicket(ctx, db, ticketId, change);
  return 'written';
}

async function ticketHasNoteEndingWith(
  ctx: AccountContext,
  ticketId: number,
  ending: string,
): Promise<boolean> {
  const page = await ctx.zendesk.tickets.comments.list(ticketId, {
    sortOrder: 'desc',
    includeUsers: false,
  });
  return page
    .getItems()
    .some((comment) => normalizeText(comment.body ?? comment.plain_body ?? '').endsWith(ending));
}

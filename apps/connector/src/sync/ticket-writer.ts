// Every change the connector makes to a ticket goes through here: one update carrying the note,
// fields, tags and status together (one API call, one trigger firing). The note is marked and its
// text recorded BEFORE the update, because the comment trigger it fires can arrive first.
import type { TDatabase } from '@incident-desk/db';
import type { AccountContext } from '../accounts/account-context';
import { normalizeText } from '../notes/normalize';

/** Starts every note the connector writes, so neither side mistakes it for an agent's words. */
export const NOTE_MARKER = '[incident-desk]';

/** How long own-note texts are kept for echo matching. */
export const OWN_NOTE_RETENTION_MS = 2 * 24 * 60 * 60 * 1000;

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

export async function updateTicket(
  ctx: AccountContext,
  db: TDatabase,
  ticketId: number,
  change: TicketChange,
): Promise<void> {
  const body = change.note === undefined ? undefined : markNote(change.note);
  if (body !== undefined) {
    await db.prisma.ownNote.create({
      data: { accountId: ctx.accountId, ticketId: BigInt(ticketId), text: normalizeText(body) },
    });
  }
  await ctx.zendesk.tickets.update(ticketId, {
    ...(body === undefined ? {} : { comment: { body, public: false } }),
    ...(change.fields?.length ? { custom_fields: change.fields } : {}),
    ...(change.addTags?.length ? { additional_tags: change.addTags } : {}),
    ...(change.removeTags?.length ? { remove_tags: change.removeTags } : {}),
    ...(change.status === undefined ? {} : { status: change.status }),
    ...(change.assigneeId === undefined ? {} : { assignee_id: change.assigneeId }),
  });
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
  const match = await db.prisma.ownNote.findFirst({
    where: {
      accountId,
      ticketId: BigInt(ticketId),
      text: normalized,
      createdAt: { gte: new Date(now.getTime() - OWN_NOTE_RETENTION_MS) },
    },
    select: { id: true },
  });
  return match !== null;
}

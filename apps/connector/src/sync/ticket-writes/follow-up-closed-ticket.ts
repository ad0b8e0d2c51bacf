// A closed ticket takes no update (Zendesk answers 422 "Status: closed prevents ticket update").
// When the refused changes carry a note, an agent must read it (an action_required asks the client
// to act; any other incident news belongs in front of an agent too, and a note is what we write for
// it), so the writer opens a follow-up of the closed ticket, as Zendesk does for a customer reply:
// the note goes there and the incident's link moves to it, so later events land on the follow-up.
// Changes without a note (only a field or a status) stay a dead letter: nobody needs to act.
import type { TDatabase } from '@incident-desk/db';
import {
  ZendeskRecordInvalidError,
  type TJobStatusResult,
  type TTicket,
} from '@incident-desk/zendesk-api';
import type { AccountContext } from '../../accounts';
import { DETECTED_TICKET_TAGS, TAG_LINKED } from '../../setup';
import { recordOwnNote } from '../echo-ledger';
import { coalesce, type WaitingChange } from './coalesce';

const CLOSED_TEXT = /closed prevents ticket update|ClosedPreventsUpdate/i;

/** The refusal says the ticket is closed (a 422 RecordInvalid naming the closed status). */
export function isClosedRefusal(error: unknown): boolean {
  if (!(error instanceof ZendeskRecordInvalidError)) return false;
  return CLOSED_TEXT.test(JSON.stringify(error.details ?? error.body ?? ''));
}

/** An update_many per-ticket result refused because the ticket is closed. */
export function isClosedResult(result: TJobStatusResult): boolean {
  return CLOSED_TEXT.test(
    `${result.details === undefined ? '' : JSON.stringify(result.details)} ${JSON.stringify(result.errors ?? '')}`,
  );
}

/** The idempotency key of the one follow-up the connector opens for a closed ticket. */
function followUpKey(accountId: string, closedTicketId: bigint): string {
  return `incident-desk-followup:${accountId}:${closedTicketId}`;
}

/**
 * Opens (or finds) the follow-up of a closed ticket for the refused changes and moves the link.
 * Returns the follow-up's id, or null when the changes need no follow-up (no note) or the ticket
 * is not closed after all (the caller keeps its dead letter).
 */
export async function followUpClosedTicket(
  ctx: AccountContext,
  db: TDatabase,
  closedTicketId: bigint,
  rows: WaitingChange[],
  writeRef: string,
  now: Date,
  knownClosed: boolean,
): Promise<bigint | null> {
  const incidentId = rows[0]!.incidentId;
  const link = await db.prisma.incidentLink.findUnique({
    where: { accountId_incidentId: { accountId: ctx.accountId, incidentId } },
  });
  // the create is made once by its idempotency key
  const { body, input } = coalesce(ctx, rows, writeRef, {
    dashboardUrl: link?.dashboardUrl,
  });
  if (body === undefined) return null;
  // A retry after the link already moved: the changes go to the follow-up the link names.
  if (link && link.ticketId !== closedTicketId) {
    await db.prisma.pendingTicketChange.updateMany({
      where: { id: { in: rows.map((row) => row.id) }, writtenAt: null },
      data: { ticketId: link.ticketId, writeRef: null, readyAt: now },
    });
    return link.ticketId;
  }
  const closed: TTicket = await ctx.zendesk.tickets.show(Number(closedTicketId));
  if (!knownClosed && closed.status !== 'closed') return null;
  const keepTags = closed.tags.filter((tag) => DETECTED_TICKET_TAGS.includes(tag));
  const customFields = [
    ...closed.custom_fields
      .filter((field) => field.id === ctx.fields.incidentId || field.id === ctx.fields.threat)
      .flatMap((field) =>
        typeof field.value === 'string' ? [{ id: field.id, value: field.value }] : [],
      ),
    ...(input.custom_fields ?? []),
  ];
  const created = await ctx.zendesk.tickets.create(
    {
      subject: `Follow-up: ${closed.subject ?? `ticket #${closedTicketId}`}`.slice(0, 250),
      comment: { body, public: false },
      via_followup_source_id: Number(closedTicketId),
      ...(closed.requester_id ? { requester_id: closed.requester_id } : {}),
      tags: [...new Set([TAG_LINKED, ...keepTags, ...(input.additional_tags ?? [])])],
      ...(customFields.length > 0 ? { custom_fields: customFields } : {}),
      ...(input.status !== undefined && input.status !== 'new' ? { status: input.status } : {}),
      ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
    },
    // One follow-up per closed ticket, however often this runs (a retry, a redelivery).
    { idempotencyKey: followUpKey(ctx.accountId, closedTicketId), maxRetries: 2 },
  );
  const followUpId = BigInt(created.ticket.id);
  await db.prisma.$transaction([
    // the note is the connector's own (echo suppression on the follow-up too)
    recordOwnNote(db.prisma, ctx.accountId, followUpId, body),
    db.prisma.incidentLink.updateMany({
      where: { accountId: ctx.accountId, incidentId, ticketId: closedTicketId },
      data: { ticketId: followUpId },
    }),
    db.prisma.pendingTicketChange.updateMany({
      where: { id: { in: rows.map((row) => row.id) }, writtenAt: null },
      data: { ticketId: followUpId, writeRef, writtenAt: now },
    }),
    // changes recorded for the closed ticket meanwhile follow the link
    db.prisma.pendingTicketChange.updateMany({
      where: {
        accountId: ctx.accountId,
        ticketId: closedTicketId,
        incidentId,
        writtenAt: null,
        failedReason: null,
      },
      data: { ticketId: followUpId, writeRef: null },
    }),
  ]);
  return followUpId;
}

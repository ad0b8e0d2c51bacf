import { z } from 'zod';
import { type AccountContext, isZendeskNotFound, type TTicket, type TUser } from '../../accounts';
import type { SyncOutcome } from '../../worker';

/** The ticket, or the job's outcome when it no longer exists. */
export async function ticketOrSkip(
  ctx: AccountContext,
  ticketId: number,
): Promise<{ ticket: TTicket } | { skipped: SyncOutcome }> {
  try {
    return { ticket: await ctx.zendesk.tickets.show(ticketId) };
  } catch (error) {
    if (isZendeskNotFound(error))
      return { skipped: { status: 'skipped', reason: 'ticket not found' } };
    throw error;
  }
}

export function customFieldValue(ticket: TTicket, fieldId: number): unknown {
  return ticket.custom_fields.find((field) => field.id === fieldId)?.value ?? null;
}

/** A user's email when it is a usable address (the service validates reportedBy and author). */
export function emailOf(user: TUser | undefined): string | undefined {
  const email = user?.email?.trim();
  return email && z.email().safeParse(email).success ? email : undefined;
}

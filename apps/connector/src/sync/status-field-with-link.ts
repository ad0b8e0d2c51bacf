// The Incident Status field written with a new link (a report's, or the sidebar's "link to the
// existing incident"), so it is never empty until the incident's next event.
import type { TDatabase } from '@incident-desk/db';
import type { AccountContext } from '../accounts';
import { statusOptionValue } from '../setup';
import { advanceTicketOrder } from './incident-events/ticket-event-order';

/**
 * The field's change for the status the incident's detail showed at `readAt`; none when an event
 * newer than that read has set the field already (ticket-event-order.ts), or the drop-down has no
 * option for the status.
 */
export async function statusFieldWithLink(
  db: TDatabase,
  ctx: Pick<AccountContext, 'accountId' | 'fields'>,
  ticketId: number,
  current: { status: string; readAt: Date },
): Promise<{ id: number; value: string }[]> {
  const value = statusOptionValue(current.status);
  if (ctx.fields.status === null || value === undefined) return [];
  const claim = await advanceTicketOrder(
    db,
    ctx.accountId,
    ticketId,
    current.readAt,
    current.status,
  );
  return claim.statusField ? [{ id: ctx.fields.status, value }] : [];
}

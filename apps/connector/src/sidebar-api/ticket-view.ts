// GET /sidebar/tickets/:ticketId in one answer: the ticket's link state and, when linked, the
// incident-service parts, plus this ticket's sync health.
import type { TDatabase } from '@incident-desk/db';
import type { TTicket } from '@incident-desk/zendesk-api';
import type { AccountContext } from '../accounts/account-context';
import { TAG_UNLINKED } from '../sync/ticket-events/ticket-tags';
import { customFieldValue } from '../sync/ticket-events/ticket-values';
import type { TLinkState, TSidebarTicketView } from '@incident-desk/sidebar/contract';
import { readIncidentParts, type IncidentParts } from './incident-parts';
import { readSyncHealth } from './sync-health';

function textField(ticket: TTicket, fieldId: number): string | null {
  const value = customFieldValue(ticket, fieldId);
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/** The incident this ticket acts on: the durable link first, else the Incident ID field. */
export async function incidentIdOfTicket(
  db: TDatabase,
  ctx: AccountContext,
  ticket: TTicket,
): Promise<string | null> {
  const link = await db.prisma.incidentLink.findUnique({
    where: { accountId_ticketId: { accountId: ctx.accountId, ticketId: BigInt(ticket.id) } },
  });
  return link?.incidentId ?? textField(ticket, ctx.fields.incidentId);
}

async function unlinkedReasonOf(db: TDatabase, accountId: string, ticketId: number) {
  const ticket = BigInt(ticketId);
  const [entry, attempt] = await Promise.all([
    db.prisma.reconciliationEntry.findUnique({
      where: { accountId_ticketId: { accountId, ticketId: ticket } },
    }),
    db.prisma.reportAttempt.findFirst({
      where: { accountId, ticketId: ticket, state: { in: ['duplicate', 'failed'] } },
      orderBy: { startedAt: 'desc' },
    }),
  ]);
  if (entry && !entry.resolvedAt)
    return entry.detail ? `${entry.reason}: ${entry.detail}` : entry.reason;
  return attempt?.detail ?? 'the report could not be linked to an incident';
}

export async function buildTicketView(
  db: TDatabase,
  ctx: AccountContext,
  ticket: TTicket,
  now: Date,
): Promise<TSidebarTicketView> {
  const fieldIncidentId = textField(ticket, ctx.fields.incidentId);
  const incidentId = fieldIncidentId ?? (await incidentIdOfTicket(db, ctx, ticket));
  const threat = textField(ticket, ctx.fields.threat);
  const linkState: TLinkState = incidentId
    ? 'linked'
    : ticket.tags.includes(TAG_UNLINKED)
      ? 'failed'
      : threat
        ? 'unlinked'
        : 'none';

  const [parts, sync, unlinkedReason] = await Promise.all([
    incidentId
      ? readIncidentParts(ctx.incidents(), incidentId)
      : Promise.resolve<IncidentParts>({
          incident: null,
          snapshots: [],
          takedownAttempts: null,
          usage: null,
          unavailable: [],
        }),
    readSyncHealth(db, ctx.accountId, ticket.id),
    linkState === 'failed' ? unlinkedReasonOf(db, ctx.accountId, ticket.id) : undefined,
  ]);

  return {
    ticket: {
      id: ticket.id,
      linkState,
      incidentId,
      threat,
      ...(unlinkedReason === undefined ? {} : { unlinkedReason }),
      fieldIds: {
        threat: ctx.fields.threat,
        incidentId: ctx.fields.incidentId,
        ...(ctx.fields.status === null ? {} : { incidentStatus: ctx.fields.status }),
      },
    },
    ...parts,
    sync,
    fetchedAt: now.toISOString(),
  };
}

// GET /sidebar/tickets/:ticketId in one answer: the ticket's link state and, when linked, the
// incident-service parts, plus this ticket's sync health.
import type { IncidentLink, TDatabase } from '@incident-desk/db';
import type { AccountContext, TTicket } from '../accounts';
import { RECONCILE_DUPLICATE, unlinkedDetail } from '../notes';
import { customFieldValue, unlinkedReasonOf } from '../sync';
import { TAG_UNLINKED } from '../setup';
import {
  INCIDENT_ACTIONS,
  type TLinkState,
  type TSidebarTicketView,
  type TSyncHealth,
} from '@incident-desk/sidebar-contract';
import { IncidentClientIds, readIncidentParts, type IncidentParts } from './incident-parts';
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

/** Why linking failed, in words and as a value (a duplicate cannot be linked by reporting again). */
async function unlinkedOf(
  db: TDatabase,
  accountId: string,
  ticketId: number,
): Promise<{ reason: string; cause: 'duplicate' | 'failed' }> {
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
    return {
      reason: entry.detail ? `${entry.reason}: ${entry.detail}` : entry.reason,
      cause: entry.reason === RECONCILE_DUPLICATE ? 'duplicate' : 'failed',
    };
  const why = attempt?.detail ? unlinkedReasonOf(attempt.detail) : null;
  return {
    reason:
      why === null
        ? 'the report could not be linked to an incident'
        : typeof why === 'string'
          ? why
          : unlinkedDetail(why),
    cause: attempt?.state === 'duplicate' ? 'duplicate' : 'failed',
  };
}

const NO_INCIDENT_PARTS: IncidentParts = {
  incident: null,
  snapshots: [],
  takedownAttempts: null,
  usage: null,
  unavailable: [],
};

/** Reads of the view that need only the ticket id, started while the ticket itself is read. */
export interface EarlyViewReads {
  /** The durable link's incident, or null. */
  linkedIncidentId: Promise<string | null>;
  /** What the link records about its incident beyond the service's answer. */
  linkedRequests: Promise<Pick<TSidebarTicketView, 'analystRequest' | 'requestedAction'>>;
  /** The id the link's report answered (what the Incident ID field holds), or null. */
  linkedReportRef: Promise<string | null>;
  /** The incident-service parts of the linked incident (null when there is no link). */
  linkedParts: Promise<IncidentParts | null>;
  sync: Promise<TSyncHealth>;
}

/**
 * Starts what the view needs besides the ticket: the durable link and, for a linked ticket, the
 * incident's parts, and the sync health. The view then costs the longest of the ticket read and
 * these, not their sum. Rejections are kept for whoever awaits them, never left unhandled.
 */
export function startEarlyViewReads(
  db: TDatabase,
  ctx: AccountContext,
  ticketId: number,
  clientIds: IncidentClientIds,
): EarlyViewReads {
  const link = db.prisma.incidentLink.findUnique({
    where: { accountId_ticketId: { accountId: ctx.accountId, ticketId: BigInt(ticketId) } },
  });
  const linkedIncidentId = link.then((row) => row?.incidentId ?? null);
  const linkedReportRef = link.then((row) => row?.reportRef ?? null);
  const linkedRequests = link.then((row) => (row ? requestsOf(row) : NO_REQUESTS));
  const linkedParts = linkedIncidentId.then((incidentId) =>
    incidentId
      ? readIncidentParts(ctx.incidents(), incidentId, {
          cache: clientIds,
          accountId: ctx.accountId,
        })
      : null,
  );
  const sync = readSyncHealth(db, ctx.accountId, ticketId);
  for (const pending of [
    link,
    linkedIncidentId,
    linkedRequests,
    linkedReportRef,
    linkedParts,
    sync,
  ])
    pending.catch(() => undefined);
  return { linkedIncidentId, linkedRequests, linkedReportRef, linkedParts, sync };
}

const NO_REQUESTS = { analystRequest: null, requestedAction: null };

function requestsOf(
  link: IncidentLink,
): Pick<TSidebarTicketView, 'analystRequest' | 'requestedAction'> {
  const action = INCIDENT_ACTIONS.find((known) => known === link.requestedAction);
  return {
    analystRequest: link.analystRequestAt
      ? { text: link.analystRequest, at: link.analystRequestAt.toISOString() }
      : null,
    requestedAction:
      action && link.requestedActionAt
        ? {
            action,
            status: link.requestedActionStatus,
            at: link.requestedActionAt.toISOString(),
          }
        : null,
  };
}

export async function buildTicketView(
  db: TDatabase,
  ctx: AccountContext,
  ticket: TTicket,
  now: Date,
  early: EarlyViewReads = startEarlyViewReads(db, ctx, ticket.id, new IncidentClientIds()),
): Promise<Omit<TSidebarTicketView, 'viewer'>> {
  const fieldIncidentId = textField(ticket, ctx.fields.incidentId);
  const linkedIncidentId = await early.linkedIncidentId;
  // The Incident ID field first (what the agent sees on the ticket), then the durable link.
  const incidentId = fieldIncidentId ?? linkedIncidentId;
  const threat = textField(ticket, ctx.fields.threat);
  const linkState: TLinkState = incidentId
    ? 'linked'
    : ticket.tags.includes(TAG_UNLINKED)
      ? 'failed'
      : threat
        ? 'unlinked'
        : 'none';

  const ofTheLink =
    incidentId !== null &&
    (incidentId === linkedIncidentId || incidentId === (await early.linkedReportRef));
  const parts: Promise<IncidentParts> = !incidentId
    ? Promise.resolve(NO_INCIDENT_PARTS)
    : ofTheLink
      ? early.linkedParts.then((read) => read ?? NO_INCIDENT_PARTS)
      : readIncidentParts(ctx.incidents(), incidentId);
  const [incidentParts, sync, unlinked, requests] = await Promise.all([
    parts,
    early.sync,
    linkState === 'failed' ? unlinkedOf(db, ctx.accountId, ticket.id) : undefined,
    ofTheLink ? early.linkedRequests : NO_REQUESTS,
  ]);

  return {
    ticket: {
      id: ticket.id,
      linkState,
      incidentId,
      threat,
      ...(unlinked === undefined
        ? {}
        : { unlinkedReason: unlinked.reason, unlinkedCause: unlinked.cause }),
      fieldIds: {
        threat: ctx.fields.threat,
        incidentId: ctx.fields.incidentId,
        ...(ctx.fields.status === null ? {} : { incidentStatus: ctx.fields.status }),
      },
    },
    ...incidentParts,
    sync,
    ...requests,
    fetchedAt: now.toISOString(),
  };
}

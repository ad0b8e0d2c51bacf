// The sidebar's actions on a threat found in the ticket: report it (it becomes the
// Threat field's value, then the usual report runs), or link this ticket to the incident the
// account already has for it instead. The value is one the connector finds in this ticket itself
// (or its saved Threat field), and the incident is the one the connector finds for that value:
// nothing the browser names is taken on trust.
import { AppError } from '../http';
import type { TDatabase } from '@incident-desk/db';
import { normalizeThreat } from '@incident-desk/threat-text';
import type { TTicket } from '../accounts';
import type { Inbox } from '../ingest';
import { notePlain, noteTexts } from '../notes';
import {
  customFieldValue,
  reserveTicketWrite,
  saveLinkUnderClaim,
  statusFieldWithLink,
  updateTicket,
} from '../sync';
import { TAG_LINKED, TAG_UNLINKED } from '../setup';
import type { SidebarCaller } from './authenticate';
import { incidentActionError, orRetryLater } from './sidebar-errors';
import { ticketsTheAgentMaySee } from './agent-access';
import { findThreatDuplicates } from './threat-duplicates';
import { readTicketThreats } from './ticket-threats';
import { queueReport, reportRefusal, type ActionResult } from './ticket-actions';
import { incidentIdOfTicket } from './ticket-view';

const alreadyLinked: ActionResult = {
  error: new AppError('already_linked', { message: 'the ticket is already linked' }),
};

function savedThreatOf(caller: SidebarCaller, ticket: TTicket): string | null {
  const value = customFieldValue(ticket, caller.ctx.fields.threat);
  return typeof value === 'string' && value.trim() ? normalizeThreat(value) : null;
}

/** Whether `value` (normalised) is the ticket's saved threat or one found in its conversation. */
export async function isThreatOfTicket(
  db: TDatabase,
  caller: SidebarCaller,
  ticket: TTicket,
  value: string,
): Promise<boolean> {
  if (savedThreatOf(caller, ticket) === value) return true;
  const found = await readTicketThreats(db, caller.ctx, ticket);
  return found.some((threat) => threat.value === value);
}

export const THREAT_NOT_IN_TICKET = new AppError('threat_not_in_ticket', {
  message: 'the value is neither the Threat field nor a threat found in this ticket',
});

const notInTicket: ActionResult = { error: THREAT_NOT_IN_TICKET };

/** Puts a threat found in the ticket into the Threat field and queues its report. */
export async function reportFoundThreat(
  db: TDatabase,
  inbox: Inbox,
  caller: SidebarCaller,
  ticket: TTicket,
  value: string,
  mode: 'takedown' | 'monitor',
  now: Date,
): Promise<ActionResult> {
  const refusal = await reportRefusal(db, caller, ticket);
  if (refusal) return refusal;
  if (!(await isThreatOfTicket(db, caller, ticket, value))) return notInTicket;
  // written before the job is queued: the report reads the Threat field from Zendesk; when
  // Zendesk cannot take it now, nothing is queued and the agent is asked to retry
  if (savedThreatOf(caller, ticket) !== value) {
    const written = await orRetryLater(() =>
      updateTicket(
        caller.ctx,
        db,
        caller.ticketId,
        { fields: [{ id: caller.ctx.fields.threat, value }] },
        { priority: true, now: () => now },
      ),
    );
    if (written !== undefined) return written;
  }
  return queueReport(db, inbox, caller, mode, now);
}

/**
 * Links this ticket to the incident the account already has for the threat, when no ticket follows
 * it yet: the durable link, under its claim, as a report's link. One that another ticket follows is
 * refused (409 followed_elsewhere): one ticket per incident, so its events and notes have one home.
 */
export function linkExistingIncident(
  db: TDatabase,
  caller: SidebarCaller,
  ticket: TTicket,
  value: string,
  now: Date,
): Promise<ActionResult> {
  return orRetryLater(() => linkExistingIncidentNow(db, caller, ticket, value, now));
}

async function linkExistingIncidentNow(
  db: TDatabase,
  caller: SidebarCaller,
  ticket: TTicket,
  value: string,
  now: Date,
): Promise<ActionResult> {
  const { ctx } = caller;
  if (await incidentIdOfTicket(db, ctx, ticket)) return alreadyLinked;
  if (!(await isThreatOfTicket(db, caller, ticket, value))) return notInTicket;
  const duplicates = await findThreatDuplicates(db, ctx, caller.ticketId, value);
  const atService =
    duplicates.service.state === 'searched' ? duplicates.service.incidents[0] : undefined;
  const followed =
    duplicates.linked[0] ??
    (atService?.linkedTicketId
      ? {
          incidentId: atService.incidentId,
          reference: atService.reference,
          ticketId: atService.linkedTicketId,
        }
      : undefined);
  // the Incident ID, and the Threat field when the value came from the conversation
  const fieldsFor = (incidentId: string) => [
    { id: ctx.fields.incidentId, value: incidentId },
    ...(savedThreatOf(caller, ticket) === value ? [] : [{ id: ctx.fields.threat, value }]),
  ];

  // One ticket follows an incident (the link table, the Incident ID field lookups): the agent works
  // on it in the ticket that follows it, never through a second Incident ID.
  if (followed) return { error: await followedElsewhere(caller, followed) };
  if (!atService)
    return {
      error: new AppError('no_existing_incident', {
        message: 'the account has no incident for this threat',
      }),
    };
  // its status goes into the Incident Status field with the link; when the service cannot say it
  // now, nothing is linked and the agent retries
  let status: string;
  try {
    status = (await ctx.incidents().incidents.retrieve(atService.incidentId)).status;
  } catch (error) {
    return { error: incidentActionError(error) };
  }
  // counted before the link is saved: when Zendesk cannot take the update now, nothing is linked
  const write = await reserveTicketWrite(ctx, db, caller.ticketId, {
    priority: true,
    now: () => now,
  });
  const save = await saveLinkUnderClaim(db, {
    accountId: ctx.accountId,
    incidentId: atService.incidentId,
    ticketId: caller.ticketId,
    reportRef: null,
    threatValue: value,
  });
  if (!save.saved)
    return notLinkable(
      save.reason === 'claimed'
        ? 'a ticket is being opened for that incident right now'
        : 'the incident or this ticket was linked meanwhile',
    );
  await write.send({
    note: noteTexts(ctx.noteLocale).link.linkedToExisting(
      atService.incidentId,
      notePlain(caller.agentName),
    ),
    fields: [
      ...fieldsFor(atService.incidentId),
      ...(await statusFieldWithLink(db, ctx, caller.ticketId, { status, readAt: now })),
    ],
    addTags: [TAG_LINKED],
    removeTags: [TAG_UNLINKED],
  });
  await resolveReconciliation(db, caller, now);
  return { status: 200, message: `linked to incident ${atService.incidentId}` };
}

/**
 * One ticket follows an incident: the answer names that ticket only to an agent who may open it,
 * and the incident by the reference people know (never the service's list id).
 */
async function followedElsewhere(
  caller: SidebarCaller,
  followed: { reference: string | null; ticketId: number | null },
): Promise<AppError> {
  const { ticketId, reference } = followed;
  const visible =
    ticketId === null
      ? new Set<number>()
      : await ticketsTheAgentMaySee(caller.ctx, caller.access, [ticketId]);
  const ticket =
    ticketId !== null && visible.has(ticketId) ? `ticket #${ticketId}` : 'another ticket';
  const incident = reference ? `incident ${reference}` : 'this incident';
  return new AppError('followed_elsewhere', { message: `${ticket} already follows ${incident}` });
}

function notLinkable(message: string): ActionResult {
  return { error: new AppError('link_conflict', { message }) };
}

async function resolveReconciliation(db: TDatabase, caller: SidebarCaller, now: Date) {
  await db.prisma.reconciliationEntry.updateMany({
    where: { accountId: caller.ctx.accountId, ticketId: BigInt(caller.ticketId), resolvedAt: null },
    data: { resolvedAt: now },
  });
}

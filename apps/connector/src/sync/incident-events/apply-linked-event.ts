// What each incident event does to a linked ticket (contract: Events). One ticket update per
// event: the note with its fields and status.
import type { AccountContext } from '../../accounts/account-context';
import { actionRequiredNote } from '../../notes/action-required-note';
import { historyNote } from '../../notes/history-note';
import { echoesAny } from '../../notes/normalize';
import { statusChangedNote } from '../../notes/status-changed-note';
import { takedownUpdatedNote } from '../../notes/takedown-updated-note';
import type { SyncOutcome } from '../job-outcome';
import { isReportOwnHistory } from '../report-own-history';
import { OWN_NOTE_RETENTION_MS, type TicketChange } from '../ticket-writer';
import type { ResolvedDeps } from './handler-deps';
import type { LinkedTicket } from './incident-link-store';
import type { ParsedIncidentEvent } from './parse-incident-event';
import { advanceTicketOrder, isOlderThanApplied, readTicketOrder } from './ticket-event-order';
import { writeEventUpdate } from './write-event-update';

type Event = ParsedIncidentEvent & { incidentId: string };

export async function applyLinkedEvent(
  deps: ResolvedDeps,
  ctx: AccountContext,
  event: Event,
  link: LinkedTicket,
): Promise<SyncOutcome> {
  switch (event.name) {
    case 'incident.status_changed':
      return applyStatusChanged(deps, ctx, event, link);
    case 'incident.history_created':
      return applyHistoryCreated(deps, ctx, event, link);
    case 'incident.takedown_updated':
      return write(deps, ctx, link, event.ref, {
        note: takedownUpdatedNote({ incidentId: event.incidentId, eventRef: event.ref }),
      });
    case 'incident.action_required':
      return applyActionRequired(deps, ctx, event, link);
    case 'incident.created':
      // Events follow processing: this is the confirmation of what the ticket reported (rule 4).
      return {
        status: 'skipped',
        reason: `incident ${event.incidentId} already linked to ticket ${link.ticketId}`,
      };
    case 'webhook.test':
      return { status: 'skipped', reason: 'webhook.test changes no ticket' };
  }
}

async function write(
  deps: ResolvedDeps,
  ctx: AccountContext,
  link: LinkedTicket,
  eventRef: string,
  change: TicketChange & { note: string },
): Promise<SyncOutcome> {
  const result = await writeEventUpdate(ctx, deps.db, link.ticketId, change, eventRef, deps.now());
  return result === 'written'
    ? { status: 'applied', detail: `ticket ${link.ticketId}` }
    : { status: 'skipped', reason: `note already on ticket ${link.ticketId}` };
}

async function applyStatusChanged(
  deps: ResolvedDeps,
  ctx: AccountContext,
  event: Event,
  link: LinkedTicket,
): Promise<SyncOutcome> {
  const base = { incidentId: event.incidentId, eventRef: event.ref };
  if (event.status === undefined) {
    return write(deps, ctx, link, event.ref, {
      note: statusChangedNote({ ...base, status: undefined }),
    });
  }
  // An older event than the last applied one is still worth a line of history, but it never
  // moves the Status field or the ticket status.
  const current = await advanceTicketOrder(
    deps.db,
    ctx.accountId,
    link.ticketId,
    event.occurredAt,
    event.status,
  );
  if (!current) {
    const order = await readTicketOrder(deps.db, ctx.accountId, link.ticketId);
    return write(deps, ctx, link, event.ref, {
      note: statusChangedNote({
        ...base,
        status: event.status,
        supersededBy: order?.lastStatus ?? null,
      }),
    });
  }
  const solve = event.status === 'takedown_success' && ctx.settings.solveOnTakedownSuccess;
  return write(deps, ctx, link, event.ref, {
    note: statusChangedNote({ ...base, status: event.status }),
    ...(ctx.fields.status === null
      ? {}
      : { fields: [{ id: ctx.fields.status, value: event.status }] }),
    ...(solve ? { status: 'solved' as const } : {}),
  });
}

async function applyHistoryCreated(
  deps: ResolvedDeps,
  ctx: AccountContext,
  event: Event,
  link: LinkedTicket,
): Promise<SyncOutcome> {
  if (event.historyMessage !== undefined) {
    const ids = [
      ...new Set([event.incidentId, link.incidentId, ...(link.reportRef ? [link.reportRef] : [])]),
    ];
    if (await isReportOwnHistory(deps.db, ctx.accountId, ids, event.historyMessage, deps.now())) {
      // Events rule 4: the confirmation of the report this ticket made, a no-op once linked
      return { status: 'skipped', reason: "history entry the ticket's own report produced" };
    }
    const posted = await deps.db.prisma.postedIncidentComment.findMany({
      where: {
        accountId: ctx.accountId,
        incidentId: { in: ids },
        createdAt: { gte: new Date(deps.now().getTime() - OWN_NOTE_RETENTION_MS) },
      },
      select: { text: true },
    });
    if (
      echoesAny(
        event.historyMessage,
        posted.map((row) => row.text),
      )
    ) {
      return { status: 'skipped', reason: 'history entry echoes a comment the connector posted' };
    }
  }
  return write(deps, ctx, link, event.ref, {
    note: historyNote({
      incidentId: event.incidentId,
      eventRef: event.ref,
      message: event.historyMessage,
    }),
  });
}

async function applyActionRequired(
  deps: ResolvedDeps,
  ctx: AccountContext,
  event: Event,
  link: LinkedTicket,
): Promise<SyncOutcome> {
  const order = await readTicketOrder(deps.db, ctx.accountId, link.ticketId);
  const reopen = !isOlderThanApplied(order, event.occurredAt);
  return write(deps, ctx, link, event.ref, {
    note: actionRequiredNote({
      incidentId: event.incidentId,
      eventRef: event.ref,
      reason: event.waitForClient,
      reopened: reopen,
    }),
    ...(reopen ? { status: 'open' as const } : {}),
  });
}

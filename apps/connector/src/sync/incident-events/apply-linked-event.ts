// What each incident event asks of a linked ticket (contract: Events). The event's job records the
// change (pending_ticket_change) and signals the account's writer, which coalesces the changes
// waiting for the ticket into one update paced under Zendesk's limits (sync/ticket-writes).
import { cutToLength } from '@incident-desk/threat-text';
import type { AccountContext } from '../../accounts';
import { type ChangeEntry, hasNews } from '../../notes';
import type { SyncOutcome } from '../../worker';
import type { TicketStatus } from '../ticket-writer';
import { drainAccountOnce } from '../ticket-writes/drain-account';
import { writeMoment } from '../ticket-writes/write-moment';
import {
  recordTicketChange,
  ticketChangeRow,
  type TicketChangeRecord,
} from '../ticket-writes/record-ticket-change';
import {
  readTakedownParts,
  takedownNews,
  type NotedTakedown,
  type TakedownParts,
} from './takedown-news';
import type { ResolvedSyncDeps } from '../sync-deps';
import type { LinkedTicket } from './incident-link-store';
import { historyChange } from './history-change';
import { statusFromIncident } from './status-from-incident';
import type {
  IncidentActionRequiredEvent,
  IncidentEvent,
  IncidentEventByName,
  IncidentEventName,
  IncidentStatusChangedEvent,
} from './incident-event';
import { advanceTicketOrder } from './ticket-event-order';

type Event = IncidentEvent;

interface Change {
  entry: ChangeEntry;
  statusValue?: string | undefined;
  ticketStatus?: TicketStatus | undefined;
}

/** What an event asks of its linked ticket, as its handler reads it. */
type LinkedChange =
  /** one pending_ticket_change */
  | { kind: 'ticket_change'; change: Change }
  /** a pending_ticket_change with the news of these parts against what the ticket was told */
  | { kind: 'takedown_news'; parts: TakedownParts }
  /** nothing for the ticket, and why */
  | { kind: 'none'; reason: string };

type LinkedEventHandlers = {
  [N in IncidentEventName]: (
    deps: ResolvedSyncDeps,
    ctx: AccountContext,
    event: IncidentEventByName[N],
    link: LinkedTicket,
  ) => Promise<LinkedChange>;
};

const ticketChange = (change: Change): LinkedChange => ({ kind: 'ticket_change', change });

/** One handler per event name (contract: Events). */
const LINKED_EVENT_HANDLERS: LinkedEventHandlers = {
  // Events follow processing: this is the confirmation of what the ticket reported (rule 4).
  'incident.created': async (_deps, _ctx, event, link) => ({
    kind: 'none',
    reason: `incident ${event.incidentId} already linked to ticket ${link.ticketId}`,
  }),
  'incident.status_changed': async (deps, ctx, event, link) =>
    ticketChange(await statusChange(deps, ctx, event, link)),
  'incident.history_created': async (deps, ctx, event, link) => {
    const change = await historyChange(deps, ctx, event, link);
    return typeof change === 'string' ? { kind: 'none', reason: change } : ticketChange(change);
  },
  'incident.takedown_updated': async (_deps, ctx, event, link) => ({
    kind: 'takedown_news',
    parts: await readTakedownParts(ctx, event, link),
  }),
  'incident.action_required': async (deps, ctx, event, link) =>
    ticketChange(await actionRequiredChange(deps, ctx, event, link)),
};

function handle<N extends IncidentEventName>(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  name: N,
  event: IncidentEventByName[N],
  link: LinkedTicket,
): Promise<LinkedChange> {
  const handler: LinkedEventHandlers[N] = LINKED_EVENT_HANDLERS[name];
  return handler(deps, ctx, event, link);
}

export async function applyLinkedEvent(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: Event,
  link: LinkedTicket,
): Promise<SyncOutcome> {
  const change = await handle(deps, ctx, event.name, event, link);
  switch (change.kind) {
    case 'ticket_change':
      return record(deps, ctx, event, link, change.change);
    case 'takedown_news':
      return recordTakedown(deps, ctx, event, link, change.parts);
    case 'none':
      return { status: 'skipped', reason: change.reason };
  }
}

function changeRecord(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: Event,
  link: LinkedTicket,
  change: { entry: ChangeEntry | null } & Omit<Change, 'entry'>,
): TicketChangeRecord {
  return {
    accountId: ctx.accountId,
    ticketId: link.ticketId,
    incidentId: event.incidentId,
    eventRef: event.ref,
    eventName: event.name,
    eventAt: event.occurredAt,
    receivedAt: event.receivedAt,
    entry: change.entry,
    statusValue: change.statusValue,
    ticketStatus: change.ticketStatus,
    readyAt: writeMoment(ctx.accountId, deps.now(), deps.writeHoldMs),
  };
}

async function record(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: Event,
  link: LinkedTicket,
  change: Change,
): Promise<SyncOutcome> {
  const row = changeRecord(deps, ctx, event, link, change);
  const recorded = await recordTicketChange(deps.db, row);
  return written(deps, ctx, link, recorded, row.readyAt);
}

interface NotedRow {
  listed: number;
  listings: number;
  attempts: number;
  attemptsEnded: number;
  snapshotAt: Date | string | null;
  since: Date | string;
}

/**
 * incident.takedown_updated: the news read from the incident's parts, against what the ticket was
 * told (the link's counts, locked while the change is recorded); no news, no note line.
 */
async function recordTakedown(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: Event,
  link: LinkedTicket,
  parts: TakedownParts,
): Promise<SyncOutcome> {
  const readyAt = writeMoment(ctx.accountId, deps.now(), deps.writeHoldMs);
  const recorded = await deps.db.prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRawUnsafe<NotedRow[]>(
      `SELECT noted_listed AS "listed", noted_listings AS "listings", noted_attempts AS "attempts",
              noted_attempts_ended AS "attemptsEnded", noted_snapshot_at AS "snapshotAt",
              created_at AS "since"
         FROM incident_link WHERE id = $1::uuid AND account_id = $2::uuid FOR UPDATE`,
      link.linkId,
      ctx.accountId,
    );
    const noted: NotedTakedown = {
      listed: Number(row?.listed ?? 0),
      listings: Number(row?.listings ?? 0),
      attempts: Number(row?.attempts ?? 0),
      attemptsEnded: Number(row?.attemptsEnded ?? 0),
      snapshotAt: row?.snapshotAt ? new Date(row.snapshotAt) : null,
      since: new Date(row?.since ?? 0),
    };
    const { news, told } = takedownNews(parts, noted);
    const entry: ChangeEntry | null = hasNews(news) ? { kind: 'takedown', news } : null;
    const created = await tx.pendingTicketChange.createMany({
      data: [ticketChangeRow({ ...changeRecord(deps, ctx, event, link, { entry }), readyAt })],
      skipDuplicates: true,
    });
    if (created.count !== 1) return 'duplicate' as const;
    if (row)
      await tx.incidentLink.updateMany({
        where: { id: link.linkId, accountId: ctx.accountId },
        data: {
          notedListed: told.listed,
          notedListings: told.listings,
          notedAttempts: told.attempts,
          notedAttemptsEnded: told.attemptsEnded,
          notedSnapshotAt: told.snapshotAt,
        },
      });
    return 'recorded' as const;
  });
  return written(deps, ctx, link, recorded, readyAt);
}

/** After a change is recorded: the account's writer is told (or, without one, writes at once). */
async function written(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  link: LinkedTicket,
  recorded: 'recorded' | 'duplicate',
  readyAt: Date,
): Promise<SyncOutcome> {
  if (recorded === 'duplicate')
    return { status: 'skipped', reason: `change already recorded for ticket ${link.ticketId}` };
  if (deps.writer) {
    deps.writer.signal(ctx.accountId, readyAt);
  } else {
    // No shared writer (tests, one-off tools): the same code writes what waits, at once.
    for (let pass = 0; pass < 10; pass += 1) {
      const result = await drainAccountOnce(ctx, deps.db, {
        now: deps.now,
        limits: deps.writeLimits,
        ignoreReadyAt: true,
        waitForJobs: true,
      });
      if (result.written === 0) break;
    }
  }
  return { status: 'applied', detail: `ticket ${link.ticketId}` };
}

async function statusChange(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: IncidentStatusChangedEvent,
  link: LinkedTicket,
): Promise<Change> {
  // "Payload fields are omitted when … not yet populated; receivers must use fallbacks."
  const status = event.status ?? (await statusFromIncident(ctx, event, link));
  if (status === undefined) return { entry: { kind: 'status', status: null } };
  // An older status than the last applied one is still worth a line of history, but it never
  // moves the Status field; an event older than the last reopening never solves the ticket.
  const claim = await advanceTicketOrder(
    deps.db,
    ctx.accountId,
    link.ticketId,
    event.occurredAt,
    status,
  );
  if (!claim.statusField) {
    return { entry: { kind: 'status', status, supersededBy: claim.lastStatus } };
  }
  const solve =
    claim.ticketStatus && status === 'takedown_success' && ctx.settings.solveOnTakedownSuccess;
  return {
    entry: { kind: 'status', status },
    statusValue: status,
    ...(solve ? { ticketStatus: 'solved' as const } : {}),
  };
}

async function actionRequiredChange(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: IncidentActionRequiredEvent,
  link: LinkedTicket,
): Promise<Change> {
  // reopening changes the ticket status, so it takes its place in the order (rule 3)
  const { ticketStatus: reopen } = await advanceTicketOrder(
    deps.db,
    ctx.accountId,
    link.ticketId,
    event.occurredAt,
    undefined,
  );
  await recordAnalystRequest(deps, ctx, event, link);
  return {
    entry: { kind: 'action_required', reason: event.waitForClient ?? null, reopened: reopen },
    ...(reopen ? { ticketStatus: 'open' as const } : {}),
  };
}

/** Longest analyst request kept for the sidebar (the note caps its own copy). */
export const ANALYST_REQUEST_MAX_CHARS = 2_000;

/**
 * The request of the newest incident.action_required event, kept on the link for the sidebar's
 * status card (the incident's own history may hold only a generic line). An older event, delivered
 * late, never replaces a newer request; one without a reason clears it.
 */
async function recordAnalystRequest(
  deps: ResolvedSyncDeps,
  ctx: AccountContext,
  event: IncidentActionRequiredEvent,
  link: LinkedTicket,
): Promise<void> {
  const text = event.waitForClient
    ? cutToLength(event.waitForClient, ANALYST_REQUEST_MAX_CHARS)
    : null;
  await deps.db.prisma.incidentLink.updateMany({
    where: {
      id: link.linkId,
      accountId: ctx.accountId,
      OR: [{ analystRequestAt: null }, { analystRequestAt: { lte: event.occurredAt } }],
    },
    data: { analystRequest: text, analystRequestAt: event.occurredAt },
  });
}

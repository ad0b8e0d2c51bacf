// The sidebar's POST actions. The incident id always comes from the ticket (server side), never
// from the request, and every row touched is scoped to the verified account and ticket.
import { AppError } from '../http';
import type { SyncFailure, TDatabase } from '@incident-desk/db';
import type { TTicket } from '../accounts';
import {
  TICKET_EVENT_QUEUE,
  TICKET_WRITE_QUEUE,
  type TicketEventJob,
  ticketOrderingKey,
} from '../jobs';
import type { Inbox } from '../ingest';
import { callAsOwn, customFieldValue } from '../sync';
import { TAG_UNLINKED } from '../setup';
import type { ActingAgent } from './authenticate';
import { incidentActionError } from './sidebar-errors';
import { COMMENT_FORWARD_PREFIX, FAILED_JOB_PREFIX, IN_FLIGHT_PREFIX } from './sync-health';
import { incidentIdOfTicket } from './ticket-view';
import { logger } from '../log';

export type ActionResult = { status: number; message: string } | { error: AppError };

export type IncidentAction = 'takedown' | 'monitor' | 'safe';

const notLinked: ActionResult = {
  error: new AppError('not_linked', { message: 'the ticket is not linked to an incident' }),
};

async function onIncident(
  db: TDatabase,
  caller: ActingAgent,
  ticket: TTicket,
  act: (incidentId: string) => Promise<unknown>,
  done: string,
): Promise<ActionResult> {
  const incidentId = await incidentIdOfTicket(db, caller.ctx, ticket);
  if (!incidentId) return notLinked;
  try {
    // the one call to the incident; its history echo is recognised in the event's job
    await callAsOwn(db, { accountId: caller.ctx.accountId, incidentId }, () => act(incidentId));
  } catch (error) {
    return { error: incidentActionError(error) };
  }
  return { status: 200, message: done };
}

export function approveTakedown(
  db: TDatabase,
  caller: ActingAgent,
  ticket: TTicket,
  bodyAuthor: unknown,
): Promise<ActionResult> {
  // the author is the verified agent; a body naming someone else is refused, not rewritten
  if (
    bodyAuthor !== undefined &&
    (typeof bodyAuthor !== 'string' ||
      bodyAuthor.trim().toLowerCase() !== caller.agentEmail.toLowerCase())
  ) {
    return Promise.resolve({
      error: new AppError('author_mismatch', { message: 'author must be the signed-in agent' }),
    });
  }
  return onIncident(
    db,
    caller,
    ticket,
    (id) => caller.ctx.incidents().incidents.approveTakedown(id, { author: caller.agentEmail }),
    'takedown approved',
  );
}

export function incidentAction(
  db: TDatabase,
  caller: ActingAgent,
  ticket: TTicket,
  action: IncidentAction,
  now: Date = new Date(),
): Promise<ActionResult> {
  const incidents = caller.ctx.incidents().incidents;
  const send = {
    takedown: (id: string) => incidents.requestTakedown(id),
    monitor: (id: string) => incidents.requestMonitoring(id),
    safe: (id: string) => incidents.markSafe(id),
  }[action];
  const run = async (id: string) => {
    const answer = await send(id);
    await recordRequestedAction(db, caller, id, action, now);
    return answer;
  };
  return onIncident(db, caller, ticket, run, `${action} requested`);
}

/**
 * Remembers on the ticket's link what was asked for and the status the incident has right after,
 * so the sidebar says "requested" (and does not offer it again) until the incident moves on. Best
 * effort: the action is done whatever happens here.
 */
async function recordRequestedAction(
  db: TDatabase,
  caller: ActingAgent,
  incidentId: string,
  action: IncidentAction,
  now: Date,
): Promise<void> {
  try {
    const { status } = await caller.ctx.incidents().incidents.retrieve(incidentId);
    await db.prisma.incidentLink.updateMany({
      where: { accountId: caller.ctx.accountId, ticketId: BigInt(caller.ticketId) },
      data: { requestedAction: action, requestedActionStatus: status, requestedActionAt: now },
    });
  } catch (error) {
    logger.warn('sidebar action: the request was not recorded for the view', { error });
  }
}

function enqueueTicketJob(
  inbox: Inbox,
  caller: ActingAgent,
  dedupeKey: string,
  body: TicketEventJob['body'],
  now: Date,
) {
  const { accountId } = caller.ctx;
  const job: TicketEventJob = {
    accountId,
    receivedAt: now.toISOString(),
    via: 'sidebar',
    agentEmail: caller.agentEmail,
    body,
  };
  return inbox.accept({
    source: 'zendesk',
    // the trigger's key (ticketing-webhook.ts): a sidebar report and a trigger report are one report
    dedupeKey: `${accountId}:${dedupeKey}`,
    accountId,
    payload: { via: 'sidebar', agentId: caller.agentId, body },
    job: {
      queue: TICKET_EVENT_QUEUE,
      data: job,
      singletonKey: ticketOrderingKey(accountId, caller.ticketId),
    },
  });
}

/**
 * The trigger's key (one report per ticket and mode); once linking was retried (reconciliation
 * entry resolved), a new key per retry, so a report can run again exactly once more.
 */
export async function enqueueReport(
  db: TDatabase,
  inbox: Inbox,
  caller: ActingAgent,
  mode: 'takedown' | 'monitor',
  now: Date,
) {
  const retried = await db.prisma.reconciliationEntry.findUnique({
    where: {
      accountId_ticketId: { accountId: caller.ctx.accountId, ticketId: BigInt(caller.ticketId) },
    },
  });
  const generation = retried?.resolvedAt ? `:retry-${retried.resolvedAt.getTime()}` : '';
  return enqueueTicketJob(
    inbox,
    caller,
    `ticket-report:${caller.ticketId}:${mode}${generation}`,
    { kind: 'report', ticketId: caller.ticketId, mode },
    now,
  );
}

/** Why this ticket cannot be reported now (already linked, or a report waits in reconciliation). */
export async function reportRefusal(
  db: TDatabase,
  caller: ActingAgent,
  ticket: TTicket,
): Promise<ActionResult | null> {
  if (await incidentIdOfTicket(db, caller.ctx, ticket))
    return {
      error: new AppError('already_linked', { message: 'the ticket is already linked' }),
    };
  if (ticket.tags.includes(TAG_UNLINKED))
    return {
      error: new AppError('link_failed', {
        message: 'a report of this ticket could not be linked; it waits in reconciliation',
      }),
    };
  return null;
}

/** Queues the report of the saved Threat field; 202 once queued (twice is one report). */
export async function queueReport(
  db: TDatabase,
  inbox: Inbox,
  caller: ActingAgent,
  mode: 'takedown' | 'monitor',
  now: Date,
): Promise<ActionResult> {
  const outcome = await enqueueReport(db, inbox, caller, mode, now);
  return {
    status: 202,
    message: outcome.status === 'accepted' ? 'report queued' : 'report already queued',
  };
}

export async function queueThreatReport(
  db: TDatabase,
  inbox: Inbox,
  caller: ActingAgent,
  ticket: TTicket,
  mode: 'takedown' | 'monitor',
  now: Date,
): Promise<ActionResult> {
  const refusal = await reportRefusal(db, caller, ticket);
  if (refusal) return refusal;
  const threat = customFieldValue(ticket, caller.ctx.fields.threat);
  if (typeof threat !== 'string' || !threat.trim())
    return { error: new AppError('no_threat', { message: 'the Threat field is empty' }) };
  return queueReport(db, inbox, caller, mode, now);
}

export async function retryForward(
  db: TDatabase,
  inbox: Inbox,
  caller: ActingAgent,
  forwardId: string,
  now: Date,
): Promise<ActionResult> {
  const { accountId } = caller.ctx;
  const ticketId = BigInt(caller.ticketId);
  const notFound: ActionResult = {
    error: new AppError('forward_not_found', { message: 'no such failed forward' }),
  };

  if (forwardId.startsWith(COMMENT_FORWARD_PREFIX)) {
    const id = forwardId.slice(COMMENT_FORWARD_PREFIX.length);
    if (!/^\d{1,19}$/.test(id)) return notFound;
    const row = await db.prisma.forwardedComment.findUnique({
      where: { accountId_commentId: { accountId, commentId: BigInt(id) } },
    });
    if (!row || row.ticketId !== ticketId || row.status !== 'failed') return notFound;
    if (row.detail?.startsWith(IN_FLIGHT_PREFIX))
      return { error: new AppError('in_progress', { message: 'still being forwarded' }) };
    // removing the record makes the comment "not handled yet": the next comment job forwards it
    const { count } = await db.prisma.forwardedComment.deleteMany({
      where: { accountId, commentId: row.commentId, status: 'failed', updatedAt: row.updatedAt },
    });
    if (count === 0) return notFound;
    await enqueueTicketJob(
      inbox,
      caller,
      `ticket-comment:${caller.ticketId}:retry-${id}-${row.updatedAt.getTime()}`,
      {
        kind: 'comment',
        ticketId: caller.ticketId,
        updatedAt: `retry-${id}-${row.updatedAt.getTime()}`,
      },
      now,
    );
    return { status: 200, message: 'forward queued again' };
  }

  if (forwardId.startsWith(FAILED_JOB_PREFIX)) {
    const id = forwardId.slice(FAILED_JOB_PREFIX.length);
    if (!/^[0-9a-f-]{36}$/i.test(id)) return notFound;
    const failure = await db.prisma.syncFailure.findFirst({
      where: {
        id,
        accountId,
        ticketId,
        resolvedAt: null,
        queue: { in: [TICKET_EVENT_QUEUE, TICKET_WRITE_QUEUE] },
      },
    });
    if (failure?.queue === TICKET_WRITE_QUEUE) return retryTicketUpdate(db, failure, now);
    const job = failure?.payload as TicketEventJob | undefined;
    if (!failure || !job?.body || job.body.ticketId !== caller.ticketId) return notFound;
    const { count } = await db.prisma.syncFailure.updateMany({
      where: { id, resolvedAt: null },
      data: { resolvedAt: now },
    });
    if (count === 0) return notFound;
    await enqueueTicketJob(inbox, caller, `sidebar-retry-job:${id}`, job.body, now);
    return { status: 200, message: 'job queued again' };
  }
  return notFound;
}

/**
 * A ticket update Zendesk refused for good: its changes wait for the writer again, which writes
 * them at its next pass (or opens the follow-up of a closed ticket).
 */
async function retryTicketUpdate(
  db: TDatabase,
  failure: SyncFailure,
  now: Date,
): Promise<ActionResult> {
  const events = (failure.payload as { events?: unknown } | null)?.events;
  const eventRefs = Array.isArray(events)
    ? events.filter((e): e is string => typeof e === 'string')
    : [];
  const { count } = await db.prisma.syncFailure.updateMany({
    where: { id: failure.id, resolvedAt: null },
    data: { resolvedAt: now },
  });
  if (count === 0)
    return { error: new AppError('forward_not_found', { message: 'no such failed forward' }) };
  await db.prisma.pendingTicketChange.updateMany({
    where: {
      accountId: failure.accountId,
      ticketId: failure.ticketId!,
      eventRef: { in: eventRefs },
      writtenAt: null,
      failedReason: { not: null },
    },
    data: { failedReason: null, writeRef: null, writeJobId: null, readyAt: now },
  });
  return { status: 200, message: 'ticket update queued again' };
}

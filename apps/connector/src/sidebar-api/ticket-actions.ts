// The sidebar's POST actions. The incident id always comes from the ticket (server side), never
// from the request, and every row touched is scoped to the verified account and ticket.
import type { TDatabase } from '@incident-desk/db';
import type { TTicket } from '@incident-desk/zendesk-api';
import { TICKET_EVENT_QUEUE, type TicketEventJob } from '../http/ticketing-webhook';
import type { Inbox } from '../ingest/inbox';
import { TAG_UNLINKED } from '../sync/ticket-events/ticket-tags';
import { customFieldValue } from '../sync/ticket-events/ticket-values';
import type { SidebarCaller } from './authenticate';
import { incidentActionError, type SidebarError } from './sidebar-errors';
import { COMMENT_FORWARD_PREFIX, FAILED_JOB_PREFIX, IN_FLIGHT_PREFIX } from './sync-health';
import { incidentIdOfTicket } from './ticket-view';

export type ActionResult = { status: number; message: string } | { error: SidebarError };

export type IncidentAction = 'takedown' | 'monitor' | 'safe';

const notLinked: ActionResult = {
  error: { status: 409, code: 'not_linked', message: 'the ticket is not linked to an incident' },
};

async function onIncident(
  db: TDatabase,
  caller: SidebarCaller,
  ticket: TTicket,
  act: (incidentId: string) => Promise<unknown>,
  done: string,
): Promise<ActionResult> {
  const incidentId = await incidentIdOfTicket(db, caller.ctx, ticket);
  if (!incidentId) return notLinked;
  try {
    await act(incidentId);
  } catch (error) {
    return { error: incidentActionError(error) };
  }
  return { status: 200, message: done };
}

export function approveTakedown(
  db: TDatabase,
  caller: SidebarCaller,
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
      error: {
        status: 403,
        code: 'author_mismatch',
        message: 'author must be the signed-in agent',
      },
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
  caller: SidebarCaller,
  ticket: TTicket,
  action: IncidentAction,
): Promise<ActionResult> {
  const incidents = caller.ctx.incidents().incidents;
  const run = {
    takedown: (id: string) => incidents.requestTakedown(id),
    monitor: (id: string) => incidents.requestMonitoring(id),
    safe: (id: string) => incidents.markSafe(id),
  }[action];
  return onIncident(db, caller, ticket, run, `${action} requested`);
}

function enqueueTicketJob(
  inbox: Inbox,
  caller: SidebarCaller,
  dedupeKey: string,
  body: TicketEventJob['body'],
  now: Date,
) {
  const { accountId } = caller.ctx;
  const job: TicketEventJob = { accountId, receivedAt: now.toISOString(), via: 'sidebar', body };
  return inbox.accept({
    source: 'zendesk',
    // the trigger's key (ticketing-webhook.ts): a sidebar report and a trigger report are one report
    dedupeKey: `${accountId}:${dedupeKey}`,
    accountId,
    payload: { via: 'sidebar', agentId: caller.agentId, body },
    job: { queue: TICKET_EVENT_QUEUE, data: job, singletonKey: `${accountId}:${caller.ticketId}` },
  });
}

/**
 * The trigger's key (one report per ticket and mode); once linking was retried (reconciliation
 * entry resolved), a new key per retry, so a report can run again exactly once more.
 */
export async function enqueueReport(
  db: TDatabase,
  inbox: Inbox,
  caller: SidebarCaller,
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

export async function reportThreat(
  db: TDatabase,
  inbox: Inbox,
  caller: SidebarCaller,
  ticket: TTicket,
  mode: 'takedown' | 'monitor',
  now: Date,
): Promise<ActionResult> {
  if (await incidentIdOfTicket(db, caller.ctx, ticket))
    return {
      error: { status: 409, code: 'already_linked', message: 'the ticket is already linked' },
    };
  if (ticket.tags.includes(TAG_UNLINKED))
    return {
      error: {
        status: 409,
        code: 'link_failed',
        message: 'a report of this ticket could not be linked; it waits in reconciliation',
      },
    };
  const threat = customFieldValue(ticket, caller.ctx.fields.threat);
  if (typeof threat !== 'string' || !threat.trim())
    return { error: { status: 400, code: 'no_threat', message: 'the Threat field is empty' } };
  const outcome = await enqueueReport(db, inbox, caller, mode, now);
  return {
    status: 202,
    message: outcome.status === 'accepted' ? 'report queued' : 'report already queued',
  };
}

export async function retryForward(
  db: TDatabase,
  inbox: Inbox,
  caller: SidebarCaller,
  forwardId: string,
  now: Date,
): Promise<ActionResult> {
  const { accountId } = caller.ctx;
  const ticketId = BigInt(caller.ticketId);
  const notFound: ActionResult = {
    error: { status: 404, code: 'forward_not_found', message: 'no such failed forward' },
  };

  if (forwardId.startsWith(COMMENT_FORWARD_PREFIX)) {
    const id = forwardId.slice(COMMENT_FORWARD_PREFIX.length);
    if (!/^\d{1,19}$/.test(id)) return notFound;
    const row = await db.prisma.forwardedComment.findUnique({
      where: { accountId_commentId: { accountId, commentId: BigInt(id) } },
    });
    if (!row || row.ticketId !== ticketId || row.status !== 'failed') return notFound;
    if (row.detail?.startsWith(IN_FLIGHT_PREFIX))
      return { error: { status: 409, code: 'in_progress', message: 'still being forwarded' } };
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
      where: { id, accountId, ticketId, resolvedAt: null, queue: TICKET_EVENT_QUEUE },
    });
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

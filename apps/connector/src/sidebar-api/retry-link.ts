// Retry linking of a ticket tagged incident_unlinked: the finished, unlinked report attempts are
// cleared (the sync keeps one report per ticket and mode), the reconciliation entry resolved, the
// report queued again through the same job as the trigger, and the tag removed. The worker then
// reports as usual; a duplicate goes back to reconciliation. Coordination is through tables only.
// The ticket update is counted before anything changes: when Zendesk cannot take it now, the
// answer is retry_later and nothing was cleared (the report's link removes the tag as well).
import { AppError } from '../http';
import type { TDatabase } from '@incident-desk/db';
import type { TTicket } from '../accounts';
import type { Inbox } from '../ingest';
import { notePlain, noteTexts } from '../notes';
import { TAG_UNLINKED } from '../setup';
import { reserveTicketWrite } from '../sync';
import type { ActingAgent } from './authenticate';
import { orRetryLater } from './sidebar-errors';
import { enqueueReport, type ActionResult } from './ticket-actions';
import { incidentIdOfTicket } from './ticket-view';

export function retryLink(
  db: TDatabase,
  inbox: Inbox,
  caller: ActingAgent,
  ticket: TTicket,
  now: Date,
): Promise<ActionResult> {
  return orRetryLater(() => retryLinkNow(db, inbox, caller, ticket, now));
}

async function retryLinkNow(
  db: TDatabase,
  inbox: Inbox,
  caller: ActingAgent,
  ticket: TTicket,
  now: Date,
): Promise<ActionResult> {
  const { accountId } = caller.ctx;
  const ticketId = BigInt(caller.ticketId);
  if (!ticket.tags.includes(TAG_UNLINKED) || (await incidentIdOfTicket(db, caller.ctx, ticket)))
    return {
      error: new AppError('not_unlinked', { message: 'the ticket is not waiting to be linked' }),
    };

  const attempts = await db.prisma.reportAttempt.findMany({
    where: { accountId, ticketId },
    orderBy: { startedAt: 'desc' },
  });
  if (attempts.some((a) => a.state === 'linked'))
    return { error: new AppError('already_linked', { message: 'the ticket is linked' }) };
  // a report still being sent or written up belongs to the worker
  if (attempts.some((a) => a.state === 'sending' || a.finishedAt === null))
    return { error: new AppError('in_progress', { message: 'a report is still running' }) };

  const mode = attempts[0]?.mode === 'monitor' ? 'monitor' : 'takedown';
  const write = await reserveTicketWrite(caller.ctx, db, caller.ticketId, {
    priority: true,
    now: () => now,
  });
  await db.prisma.$transaction(async (tx) => {
    await tx.reportAttempt.deleteMany({
      where: { accountId, ticketId, id: { in: attempts.map((a) => a.id) } },
    });
    // resolvedAt is also the generation of the next report's dedupe key (enqueueReport)
    await tx.reconciliationEntry.upsert({
      where: { accountId_ticketId: { accountId, ticketId } },
      create: { accountId, ticketId, reason: 'linking retried', resolvedAt: now },
      update: { resolvedAt: now },
    });
  });
  if (attempts.length > 0) await enqueueReport(db, inbox, caller, mode, now);
  await write.send({
    note: noteTexts(caller.ctx.noteLocale).link.retried(notePlain(caller.agentName)),
    removeTags: [TAG_UNLINKED],
  });
  if (attempts.length === 0)
    return { status: 200, message: 'unlinked state cleared; report the threat again' };
  return { status: 202, message: 'report queued again' };
}

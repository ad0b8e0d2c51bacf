// Actions: a request tag on a linked ticket becomes POST /v1/incident/{id}/tkd, /monitor or /safe.
// The tag is removed afterwards, so adding it again is a new request; a tag already gone means the
// request was handled (or withdrawn) and nothing is sent. The request row (`sending`, written
// before the POST) is settled even across a database restart (untilStored): left `sending`, the
// retry would tell the agent the outcome is unknown for a request that never went out. The row
// also says what is left when the ticket's update is put off (TicketWriteDeferred) after the
// service answered: `sent` or `failed` (with the agent's note), so the next run only writes.
import { ticketOrSkip } from './ticket-values';
import type { AccountContext } from '../../accounts';
import type { SyncOutcome } from '../../worker';
import { callAsOwn } from '../echo-ledger';
import { updateTicket, type TicketChange } from '../ticket-writer';
import {
  describeIncidentFailure,
  incidentFailureKind,
  isTransientFailure,
} from '../service-failure';
import type { SyncDeps } from '../sync-deps';
import { untilStored } from '../until-stored';
import { ACTION_REQUEST_TAGS } from '../../setup';
import { noteTexts } from '../../notes';

export type IncidentAction = keyof typeof ACTION_REQUEST_TAGS;

export async function requestIncidentAction(
  deps: SyncDeps,
  ctx: AccountContext,
  ticketId: number,
  action: IncidentAction,
): Promise<SyncOutcome> {
  const tag = ACTION_REQUEST_TAGS[action];
  // the ticket is the incident's: its notes need not name the incident
  const t = noteTexts(ctx.noteLocale).actions;
  // the agent waits for the tag to go: before incident news
  const write = (change: TicketChange) =>
    updateTicket(ctx, deps.db, ticketId, change, { priority: true, now: deps.now });
  const read = await ticketOrSkip(ctx, ticketId);
  if ('skipped' in read) return read.skipped;
  const { ticket } = read;
  if (!ticket.tags.includes(tag))
    return { status: 'skipped', reason: `tag ${tag} already removed: request handled` };

  const link = await deps.db.prisma.incidentLink.findUnique({
    where: { accountId_ticketId: { accountId: ctx.accountId, ticketId: BigInt(ticketId) } },
  });
  if (!link) {
    await write({ note: t.notLinked(action), removeTags: [tag] });
    return { status: 'failed_permanently', reason: 'ticket not linked to an incident' };
  }

  const request = deps.receiptId
    ? { accountId: ctx.accountId, receiptId: deps.receiptId }
    : undefined;
  const earlier = request ? await earlierRequest(deps, request) : null;
  const outcomeUnknown = async (why: string, reason: string): Promise<SyncOutcome> => {
    // The service may have acted, so the action is not sent again; the agent decides.
    await write({ note: t.outcomeUnknown(action, why, tag), removeTags: [tag] });
    return { status: 'failed_permanently', reason: `${action} outcome unknown: ${reason}` };
  };
  const failed = async (failure: string): Promise<SyncOutcome> => {
    await write({ note: t.failed(action, failure, tag), removeTags: [tag] });
    return { status: 'failed_permanently', reason: `${action} failed: ${failure}` };
  };
  if (earlier?.state === 'sending') {
    return outcomeUnknown(t.stoppedWhileSending, 'stopped while sending');
  }
  if (earlier?.state === 'failed') return failed(earlier.detail ?? t.serviceRefused);
  if (!earlier) {
    if (request)
      await deps.db.prisma.incidentActionRequest.create({
        data: {
          ...request,
          ticketId: BigInt(ticketId),
          incidentId: link.incidentId,
          action,
          state: 'sending',
        },
      });
    try {
      await callAsOwn(deps.db, { accountId: ctx.accountId, incidentId: link.incidentId }, () =>
        sendAction(ctx, action, link.incidentId),
      );
    } catch (error) {
      // The connection was lost or the service failed midway: the request stays `sending`, so no
      // later try of this job sends it again.
      if (incidentFailureKind(error) === 'unknown') {
        return outcomeUnknown(
          t.answerLost(describeIncidentFailure(error)),
          `answer lost (${describeIncidentFailure(error)})`,
        );
      }
      // The service answered (or certainly did not act): this attempt is over, whatever comes
      // next. A retry of the job sends again; the last one only writes the agent's note.
      const failure = describeIncidentFailure(error);
      const retry = isTransientFailure(error) && !deps.lastAttempt;
      if (request) await settleRefusedRequest(deps, request, retry ? null : failure);
      if (retry) throw error;
      return failed(failure);
    }
    if (request) await markRequestSent(deps, request);
  }
  // Sent now or by an earlier try of this job whose ticket update failed: only the update is left.
  await write({ note: t.done(action), removeTags: [tag] });
  return { status: 'applied', detail: `${action} sent for incident ${link.incidentId}` };
}

type RequestKey = { accountId: string; receiptId: string };

function earlierRequest(deps: SyncDeps, request: RequestKey) {
  return deps.db.prisma.incidentActionRequest.findUnique({
    where: { accountId_receiptId: request },
  });
}

/** A refused request: released for the job's retry (no failure), or failed for good. */
async function settleRefusedRequest(
  deps: SyncDeps,
  request: RequestKey,
  failure: string | null,
): Promise<void> {
  await untilStored(() =>
    failure === null
      ? deps.db.prisma.incidentActionRequest.deleteMany({ where: request })
      : deps.db.prisma.incidentActionRequest.updateMany({
          where: request,
          data: { state: 'failed', detail: failure },
        }),
  );
}

async function markRequestSent(deps: SyncDeps, request: RequestKey): Promise<void> {
  await untilStored(() =>
    deps.db.prisma.incidentActionRequest.update({
      where: { accountId_receiptId: request },
      data: { state: 'sent' },
    }),
  );
}

async function sendAction(
  ctx: AccountContext,
  action: IncidentAction,
  incidentId: string,
): Promise<void> {
  const incidents = ctx.incidents().incidents;
  if (action === 'tkd') await incidents.requestTakedown(incidentId);
  else if (action === 'monitor') await incidents.requestMonitoring(incidentId);
  else await incidents.markSafe(incidentId);
}

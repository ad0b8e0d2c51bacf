// Report: ticket -> incident. A threat is reported at most once per ticket and mode, across
// crashes and redeliveries: the ReportAttempt row is written before the POST and moves through
//   sending (no ref)  -> the outcome is unknown: never resend, reconcile instead
//   sending (+ ref)   -> reported; the link is still to be saved
//   linked            -> link saved; the ticket update is still to be written (until finishedAt)
//   duplicate|failed  -> not linked; the ticket note is still to be written (until finishedAt)
// A report the service refused, or never accepted, created nothing: its row is deleted and the
// delivery's receipt released (releaseRequest), so the agent re-adding the submit tag reports anew.
import { isUniqueViolation, type IncidentLink, type ReportAttempt } from '@incident-desk/db';
import { DuplicateIncidentError, type TReportRequest } from '@incident-desk/incident-api';
import {
  ZendeskForbiddenError,
  ZendeskRecordNotFoundError,
  type TTicket,
  type TUser,
} from '@incident-desk/zendesk-api';
import type { AccountContext } from '../../accounts/account-context';
import { releaseReceipt } from '../../ingest/release-receipt';
import { defang } from '../../notes/defang';
import { normalizeText } from '../../notes/normalize';
import type { SyncOutcome } from '../job-outcome';
import { saveLinkUnderClaim } from '../incident-link-claim';
import { recordReportOwnHistory } from '../report-own-history';
import { updateTicket } from '../ticket-writer';
import { describeIncidentFailure, incidentFailureKind } from './incident-error-kind';
import { readTicketComments } from './read-ticket-comments';
import { reportTargetOf } from './threat-report-target';
import { nowOf, type TicketEventDeps } from './ticket-event-deps';
import {
  SUBMIT_TAGS,
  TAG_LINKED,
  TAG_SUBMIT,
  TAG_SUBMIT_MONITOR,
  TAG_UNLINKED,
} from './ticket-tags';
import { customFieldValue, emailOf } from './ticket-values';

export type ReportMode = 'takedown' | 'monitor';

const MODE_TEXT: Record<ReportMode, string> = { takedown: 'takedown', monitor: 'monitoring' };
const SUBMIT_TAG_OF: Record<ReportMode, string> = {
  takedown: TAG_SUBMIT,
  monitor: TAG_SUBMIT_MONITOR,
};

/** Reconciliation reasons, as shown on the admin page. */
export const RECONCILE_DUPLICATE = 'duplicate';
export const RECONCILE_OUTCOME_UNKNOWN = 'report outcome unknown';
export const RECONCILE_LINK_CONFLICT = 'link conflict';

interface ReportScope {
  deps: TicketEventDeps;
  ctx: AccountContext;
  ticketId: number;
  mode: ReportMode;
  /** Asked for by the submit tag (a trigger), not by the sidebar: the tag must still be there. */
  byTag: boolean;
}

export async function reportThreat(
  deps: TicketEventDeps,
  ctx: AccountContext,
  ticketId: number,
  mode: ReportMode,
  options: { byTag?: boolean } = {},
): Promise<SyncOutcome> {
  const scope: ReportScope = { deps, ctx, ticketId, mode, byTag: options.byTag ?? false };
  const attempt = await findAttempt(scope);
  if (attempt) return resumeAttempt(scope, attempt);

  const existingLink = await linkOfTicket(scope);
  if (existingLink) {
    return {
      status: 'skipped',
      reason: `ticket already linked to incident ${existingLink.incidentId}`,
    };
  }

  try {
    return await reportAnew(scope);
  } catch (error) {
    // The queue's last try: the job ends here. With no report under way nothing was created, so
    // the request is released and the submit tag, added again, asks anew.
    if (deps.lastAttempt && !(await findAttempt(scope))) await releaseRequest(scope);
    throw error;
  }
}

async function reportAnew(scope: ReportScope): Promise<SyncOutcome> {
  const { deps, ctx, ticketId, mode } = scope;
  let ticket: TTicket;
  try {
    ticket = await ctx.zendesk.tickets.show(ticketId);
  } catch (error) {
    if (error instanceof ZendeskRecordNotFoundError)
      return { status: 'skipped', reason: 'ticket not found' };
    throw error;
  }
  if (scope.byTag && !ticket.tags.includes(SUBMIT_TAG_OF[mode])) {
    // A late redelivery of a request already answered (the tag is removed then), or a withdrawn
    // one: nothing to report, and the tag added again is a new request.
    await releaseRequest(scope);
    return { status: 'skipped', reason: `tag ${SUBMIT_TAG_OF[mode]} no longer on the ticket` };
  }
  const threatValue = customFieldValue(ticket, ctx.fields.threat);
  const target = reportTargetOf(threatValue);
  if (!target.ok) {
    const shown =
      typeof threatValue === 'string' && threatValue.trim()
        ? ` (${defang(threatValue.trim())})`
        : '';
    await releaseRequest(scope);
    await updateTicket(ctx, deps.db, ticketId, {
      note:
        `Not reported to the incident service: ${target.problem}${shown}. ` +
        `Enter a URL, domain, email address, E.164 phone number (such as +14155550123) or IPv4 address ` +
        `in the Threat field and add the ${SUBMIT_TAG_OF[mode]} tag again.`,
      removeTags: SUBMIT_TAGS,
    });
    return { status: 'failed_permanently', reason: `invalid threat: ${target.problem}` };
  }

  const { comments, users } = await readTicketComments(ctx.zendesk, ticketId);
  const description = comments.at(-1);
  const comment = normalizeText(
    description?.plain_body ?? description?.body ?? ticket.description ?? '',
  );
  const reportedBy = await requesterEmail(ctx, ticket, users);
  const report: TReportRequest = {
    ...target.target,
    ...(reportedBy ? { reportedBy } : {}),
    ...(comment ? { comment } : {}),
  };

  try {
    await deps.db.prisma.reportAttempt.create({
      data: {
        accountId: ctx.accountId,
        ticketId: BigInt(ticketId),
        mode,
        state: 'sending',
        startedAt: nowOf(deps),
      },
    });
  } catch (error) {
    // another worker claimed this report between our read and write: let the retry see its state
    if (isUniqueViolation(error)) {
      throw new Error(`report of ticket ${ticketId} (${mode}) claimed concurrently`, {
        cause: error,
      });
    }
    throw error;
  }

  const incidents = ctx.incidents();
  let reportRef: string;
  let answer: string | undefined;
  try {
    const result =
      mode === 'takedown'
        ? await incidents.incidents.reportTakedown(report)
        : await incidents.incidents.reportMonitoring(report);
    reportRef = result.id;
    answer = result.message;
  } catch (error) {
    if (error instanceof DuplicateIncidentError) {
      return recordUnlinked(scope, 'duplicate', RECONCILE_DUPLICATE, duplicateDetail(error));
    }
    const kind = incidentFailureKind(error);
    if (kind === 'unknown') {
      return recordUnlinked(
        scope,
        'failed',
        RECONCILE_OUTCOME_UNKNOWN,
        `the report request failed midway (${describeIncidentFailure(error)})`,
      );
    }
    // the service certainly did not act: the claim is released so the report can be made later
    await deps.db.prisma.reportAttempt.delete({ where: attemptKey(scope) });
    if (kind === 'not_acted' && !deps.lastAttempt) throw error;
    await releaseRequest(scope);
    const failure = describeIncidentFailure(error);
    await updateTicket(ctx, deps.db, ticketId, {
      note:
        kind === 'not_acted'
          ? `The incident service was unavailable for the report for ${MODE_TEXT[mode]} (${failure}). Nothing was reported; add the ${SUBMIT_TAG_OF[mode]} tag again to retry.`
          : `The incident service refused the report for ${MODE_TEXT[mode]} (${failure}). Nothing was reported; fix what it names and add the ${SUBMIT_TAG_OF[mode]} tag again.`,
      removeTags: SUBMIT_TAGS,
    });
    return {
      status: 'failed_permanently',
      reason: `report ${kind === 'not_acted' ? 'not accepted' : 'rejected'}: ${failure}`,
    };
  }

  // before the link exists, so the events this report causes already find what it produced
  await recordReportOwnHistory(deps.db, ctx.accountId, reportRef, [answer]);
  if (comment) {
    await deps.db.prisma.postedIncidentComment.create({
      data: { accountId: ctx.accountId, incidentId: reportRef, text: comment },
    });
  }
  await deps.db.prisma.reportAttempt.update({
    where: attemptKey(scope),
    data: { incidentId: reportRef },
  });
  return linkReported(scope, reportRef, { ticket, commentIds: comments.map((c) => c.id) });
}

async function resumeAttempt(scope: ReportScope, attempt: ReportAttempt): Promise<SyncOutcome> {
  switch (attempt.state) {
    case 'sending':
      if (attempt.incidentId) return linkReported(scope, attempt.incidentId, undefined);
      // a worker died between claiming and recording the answer: the threat may be reported
      return recordUnlinked(
        scope,
        'failed',
        RECONCILE_OUTCOME_UNKNOWN,
        'a previous attempt stopped while the report was being sent',
      );
    case 'linked': {
      if (attempt.finishedAt) return { status: 'skipped', reason: 'already reported and linked' };
      const link = await linkOfTicket(scope);
      if (!link)
        throw new Error(
          `report attempt of ticket ${scope.ticketId} is linked but the link is missing`,
        );
      return markTicketLinked(scope, link, undefined);
    }
    case 'duplicate':
    case 'failed':
      if (attempt.finishedAt)
        return { status: 'skipped', reason: `report already handled (${attempt.state})` };
      return writeUnlinkedNote(scope, attempt.state, attempt.detail ?? '');
  }
}

/** The report succeeded: resolve the id events carry, then save the link before touching the ticket. */
async function linkReported(
  scope: ReportScope,
  reportRef: string,
  /** What this run read before reporting; undefined when resuming an earlier run. */
  atReport: { ticket: TTicket; commentIds: number[] } | undefined,
): Promise<SyncOutcome> {
  const { deps, ctx, ticketId } = scope;
  // events carry the list id, a report answers with a reference; both address the incident
  const detail = await ctx.incidents().incidents.retrieve(reportRef);
  const incidentId = detail.id;
  // The history the incident has right after the report is what the report produced. A resumed
  // run reads it later, when it may hold news as well: it keeps only the service's answer.
  if (atReport) {
    await recordReportOwnHistory(
      deps.db,
      ctx.accountId,
      incidentId,
      detail.history.map((entry) => entry.message),
    );
  }
  let link: IncidentLink;
  const save = await saveLinkUnderClaim(deps.db, {
    accountId: ctx.accountId,
    incidentId,
    ticketId,
    reportRef,
  });
  if (save.saved) {
    link = save.link;
  } else if (save.reason === 'claimed') {
    // a worker is opening a ticket for this incident: once it finishes, the link either collides
    // with its ticket or is free; the queue's retry finds out, its last try gives up to a person
    if (!deps.lastAttempt)
      throw new Error(`incident ${incidentId} is claimed by a worker opening its ticket; retry`);
    return recordUnlinked(
      scope,
      'failed',
      RECONCILE_LINK_CONFLICT,
      `reported as incident ${incidentId}, but a ticket is being opened for that incident`,
    );
  } else {
    const existing = await deps.db.prisma.incidentLink.findFirst({
      where: {
        accountId: ctx.accountId,
        OR: [{ incidentId }, { ticketId: BigInt(ticketId) }, { reportRef }],
      },
    });
    if (!existing || existing.ticketId !== BigInt(ticketId) || existing.incidentId !== incidentId) {
      const other = existing
        ? `incident ${existing.incidentId} / ticket ${existing.ticketId}`
        : 'another record';
      return recordUnlinked(
        scope,
        'failed',
        RECONCILE_LINK_CONFLICT,
        `reported as incident ${incidentId}, but the link collides with ${other}`,
      );
    }
    link = existing; // saved by an earlier run that stopped before recording it
  }
  const ids =
    atReport?.commentIds ??
    (await readTicketComments(ctx.zendesk, ticketId)).comments.map((c) => c.id);
  await markCommentsReported(scope, link.incidentId, ids);
  await deps.db.prisma.reportAttempt.update({
    where: attemptKey(scope),
    data: { state: 'linked', detail: `linked to incident ${incidentId}` },
  });
  return markTicketLinked(scope, link, atReport?.ticket);
}

/** Comments that existed when the threat was reported went with the report; never forward them. */
async function markCommentsReported(scope: ReportScope, incidentId: string, commentIds: number[]) {
  if (commentIds.length === 0) return;
  await scope.deps.db.prisma.forwardedComment.createMany({
    data: commentIds.map((id) => ({
      accountId: scope.ctx.accountId,
      commentId: BigInt(id),
      ticketId: BigInt(scope.ticketId),
      incidentId,
      status: 'skipped' as const,
      detail: 'predates the report',
    })),
    skipDuplicates: true,
  });
}

async function markTicketLinked(
  scope: ReportScope,
  link: IncidentLink,
  /** The ticket as read before reporting; undefined when resuming, so it is read again. */
  readBeforeReport: TTicket | undefined,
): Promise<SyncOutcome> {
  const { deps, ctx, ticketId, mode } = scope;
  const resuming = readBeforeReport === undefined;
  const ticket = readBeforeReport ?? (await ctx.zendesk.tickets.show(ticketId));
  // a resumed run may follow an update that reached Zendesk without its answer reaching us
  const alreadyWritten =
    resuming &&
    customFieldValue(ticket, ctx.fields.incidentId) === link.incidentId &&
    ticket.tags.includes(TAG_LINKED);
  if (!alreadyWritten) {
    const threat = customFieldValue(ticket, ctx.fields.threat);
    await updateTicket(ctx, deps.db, ticketId, {
      note:
        `Reported to the incident service for ${MODE_TEXT[mode]}` +
        (typeof threat === 'string' && threat ? `: ${defang(threat.trim())}` : '') +
        `. Incident ID: ${link.incidentId}` +
        (link.reportRef && link.reportRef !== link.incidentId
          ? ` (reference ${link.reportRef})`
          : '') +
        '.',
      fields: [{ id: ctx.fields.incidentId, value: link.incidentId }],
      addTags: [TAG_LINKED],
      removeTags: SUBMIT_TAGS,
    });
  }
  await deps.db.prisma.reportAttempt.update({
    where: attemptKey(scope),
    data: { finishedAt: nowOf(deps) },
  });
  return { status: 'applied', detail: `linked to incident ${link.incidentId}` };
}

/** 409, 200 without id, an unknown outcome or a link conflict: never retried, reconciled by a person. */
async function recordUnlinked(
  scope: ReportScope,
  state: 'duplicate' | 'failed',
  reason: string,
  detail: string,
): Promise<SyncOutcome> {
  const { deps, ctx, ticketId } = scope;
  await deps.db.prisma.reportAttempt.update({ where: attemptKey(scope), data: { state, detail } });
  await deps.db.prisma.reconciliationEntry.upsert({
    where: { accountId_ticketId: { accountId: ctx.accountId, ticketId: BigInt(ticketId) } },
    create: { accountId: ctx.accountId, ticketId: BigInt(ticketId), reason, detail },
    update: { reason, detail, resolvedAt: null },
  });
  return writeUnlinkedNote(scope, state, detail);
}

async function writeUnlinkedNote(
  scope: ReportScope,
  state: 'duplicate' | 'failed',
  detail: string,
): Promise<SyncOutcome> {
  const { deps, ctx, ticketId, mode } = scope;
  const what =
    state === 'duplicate'
      ? `The incident service already has an incident for this threat (${detail}).`
      : `The report for ${MODE_TEXT[mode]} could not be linked: ${detail}.`;
  await updateTicket(ctx, deps.db, ticketId, {
    note: `${what} The ticket was not linked and is not reported again; it waits in the reconciliation queue for an administrator to link it.`,
    addTags: [TAG_UNLINKED],
    removeTags: SUBMIT_TAGS,
  });
  await deps.db.prisma.reportAttempt.update({
    where: attemptKey(scope),
    data: { finishedAt: nowOf(deps) },
  });
  return { status: 'applied', detail: `not linked (${state}): in reconciliation` };
}

function duplicateDetail(error: DuplicateIncidentError): string {
  return error.status === 409 ? 'answered 409' : 'answered without an incident id';
}

async function requesterEmail(ctx: AccountContext, ticket: TTicket, users: Map<number, TUser>) {
  const requesterId = ticket.requester_id;
  if (requesterId === null || requesterId === undefined) return undefined;
  const sideloaded = users.get(requesterId);
  if (sideloaded) return emailOf(sideloaded);
  try {
    return emailOf(await ctx.zendesk.users.show(requesterId));
  } catch (error) {
    // without users:read (or for a deleted user) the report goes without reportedBy
    if (error instanceof ZendeskForbiddenError || error instanceof ZendeskRecordNotFoundError)
      return undefined;
    throw error;
  }
}

/**
 * This request created nothing: its receipt is moved aside before the submit tag is removed, so
 * adding the tag again is accepted as a new request however soon it comes. A stale delivery
 * accepted meanwhile finds the same ticket and at most reports what is now asked; a ticket never
 * gets a second report, because a report under way or done keeps its ReportAttempt row.
 */
async function releaseRequest({ deps }: ReportScope): Promise<void> {
  if (deps.receiptId) await releaseReceipt(deps.db, deps.receiptId);
}

function attemptKey({ ctx, ticketId, mode }: ReportScope) {
  return {
    accountId_ticketId_mode: { accountId: ctx.accountId, ticketId: BigInt(ticketId), mode },
  };
}

function findAttempt(scope: ReportScope) {
  return scope.deps.db.prisma.reportAttempt.findUnique({ where: attemptKey(scope) });
}

function linkOfTicket({ deps, ctx, ticketId }: ReportScope) {
  return deps.db.prisma.incidentLink.findUnique({
    where: { accountId_ticketId: { accountId: ctx.accountId, ticketId: BigInt(ticketId) } },
  });
}

// Report: ticket -> incident. A threat is reported at most once per ticket and mode, across
// crashes and redeliveries: the ReportAttempt row is written before the POST and moves through
// the states of report-attempt.ts (ReportState). A report the service refused, or never accepted,
// created nothing: the delivery's receipt is released (releaseRequest) and, once the agent's note
// is written, its row dropped, so the agent re-adding the submit tag reports anew. Every ticket
// write after the service answered may be put off (TicketWriteDeferred): the job's next run
// resumes from the recorded state and only writes. What the agent reads: notes/report-notes.ts.
import { isUniqueViolation, type IncidentLink, type ReportAttempt } from '@incident-desk/db';
import {
  DuplicateIncidentError,
  type TReportRequest,
  type ReportResult,
} from '@incident-desk/incident-api';
import { normalizeThreat } from '@incident-desk/threat-text';
import {
  ZendeskForbiddenError,
  ZendeskRecordNotFoundError,
  type TComment,
  type TTicket,
  type TUser,
} from '@incident-desk/zendesk-api';
import type { AccountContext } from '../../accounts/account-context';
import { JobDeferral } from '../../jobs/job-deferral';
import { releaseReceipt } from '../../ingest/release-receipt';
import { dashboardLink } from '../../notes/dashboard-link';
import {
  invalidThreatNote,
  notLinkedNote,
  RECONCILE_DUPLICATE,
  RECONCILE_LINK_CONFLICT,
  RECONCILE_OUTCOME_UNKNOWN,
  reportedNote,
  reportNotTakenNote,
  threatProblemText,
  unlinkedDetail,
  type ReportMode,
} from '../../notes/report-notes';
import { noteTexts } from '../../notes/texts';
import type { UnlinkedReason } from '../../notes/texts/note-reasons';
import { normalizeText } from '../../notes/normalize';
import type { SyncOutcome } from '../job-outcome';
import { saveLinkUnderClaim } from '../incident-link-claim';
import { recordReportComment, recordReportHistory } from '../echo-ledger';
import { statusOptionValue } from '../../setup/status-field';
import { advanceTicketOrder } from '../incident-events/ticket-event-order';
import { updateTicket, type TicketChange } from '../ticket-writer';
import { describeIncidentFailure, incidentFailureKind } from '../service-failure';
import { readTicketComments } from './read-ticket-comments';
import { forwardReportedEvidence, markCommentsReported } from './reported-evidence';
import { reportTargetOf } from './threat-report-target';
import { nowOf, type SyncDeps } from '../sync-deps';
import { untilStored } from '../until-stored';
import {
  claimReport,
  dropClaim,
  findAttempt,
  recordFinished,
  recordLinked,
  recordRefused,
  recordReported,
  recordUnlinkedState,
  stateOf,
  type RefusedState,
  type ReportScope,
  type UnlinkedState,
} from './report-attempt';
import {
  SUBMIT_TAGS,
  TAG_LINKED,
  TAG_SUBMIT,
  TAG_SUBMIT_MONITOR,
  TAG_UNLINKED,
} from './ticket-tags';
import { customFieldValue, emailOf, ticketOrSkip } from './ticket-values';

export type { ReportMode };

const SUBMIT_TAG_OF: Record<ReportMode, string> = {
  takedown: TAG_SUBMIT,
  monitor: TAG_SUBMIT_MONITOR,
};

export async function reportThreat(
  deps: SyncDeps,
  ctx: AccountContext,
  ticketId: number,
  mode: ReportMode,
  /** reportedBy: the agent who reported from the sidebar; else the ticket's requester. */
  options: { byTag?: boolean; reportedBy?: string } = {},
): Promise<SyncOutcome> {
  const scope: ReportScope = {
    deps,
    ctx,
    ticketId,
    mode,
    byTag: options.byTag ?? false,
    ...(options.reportedBy ? { reportedBy: options.reportedBy } : {}),
  };
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
    // The queue's last try: the job ends here (unless it is only put off). With no report under
    // way nothing was created, so the request is released and the submit tag, added again, asks anew.
    if (deps.lastAttempt && !(error instanceof JobDeferral) && !(await findAttempt(scope)))
      await releaseRequest(scope);
    throw error;
  }
}

/** What this run read and will report; or the outcome when there is nothing to report. */
interface ReportRequest {
  ticket: TTicket;
  comments: TComment[];
  report: TReportRequest;
  comment: string;
}

async function reportAnew(scope: ReportScope): Promise<SyncOutcome> {
  const request = await readReportRequest(scope);
  if ('status' in request) return request;
  try {
    await claimReport(scope);
  } catch (error) {
    // another worker claimed this report between our read and write: let the retry see its state
    if (isUniqueViolation(error)) {
      throw new Error(`report of ticket ${scope.ticketId} (${scope.mode}) claimed concurrently`, {
        cause: error,
      });
    }
    throw error;
  }
  let result: ReportResult;
  try {
    result = await sendReport(scope, request.report);
  } catch (error) {
    return reportFailed(scope, error);
  }
  return reported(scope, request, result);
}

/** The ticket, its threat and description, as a report request; refusals end the job here. */
async function readReportRequest(scope: ReportScope): Promise<ReportRequest | SyncOutcome> {
  const { ctx, ticketId, mode } = scope;
  const read = await ticketOrSkip(ctx, ticketId);
  if ('skipped' in read) return read.skipped;
  const { ticket } = read;
  if (scope.byTag && !ticket.tags.includes(SUBMIT_TAG_OF[mode])) {
    // A late redelivery of a request already answered (the tag is removed then), or a withdrawn
    // one: nothing to report, and the tag added again is a new request.
    await releaseRequest(scope);
    return { status: 'skipped', reason: `tag ${SUBMIT_TAG_OF[mode]} no longer on the ticket` };
  }
  const threatValue = customFieldValue(ticket, ctx.fields.threat);
  const target = reportTargetOf(threatValue);
  if (!target.ok) {
    await releaseRequest(scope);
    // put off, the job's next run reads the ticket again and writes this note then
    await writeForAgent(scope, {
      note: invalidThreatNote(noteTexts(ctx.noteLocale), {
        problem: target.problem,
        threat: threatValue,
        submitTag: SUBMIT_TAG_OF[mode],
      }),
      removeTags: SUBMIT_TAGS,
    });
    return {
      status: 'failed_permanently',
      reason: `invalid threat: ${threatProblemText(target.problem)}`,
    };
  }

  const { comments, users } = await readTicketComments(ctx.zendesk, ticketId);
  const description = comments.at(-1);
  const comment = normalizeText(
    description?.plain_body ?? description?.body ?? ticket.description ?? '',
  );
  const reportedBy = scope.reportedBy ?? (await requesterEmail(ctx, ticket, users));
  const report: TReportRequest = {
    ...target.target,
    ...(reportedBy ? { reportedBy } : {}),
    ...(comment ? { comment } : {}),
  };
  return { ticket, comments, report, comment };
}

function sendReport(scope: ReportScope, report: TReportRequest): Promise<ReportResult> {
  const { incidents } = scope.ctx.incidents();
  return scope.mode === 'takedown'
    ? incidents.reportTakedown(report)
    : incidents.reportMonitoring(report);
}

/** claimed -> unlinked (duplicate, lost answer), refused, or dropped (the service did not act). */
async function reportFailed(scope: ReportScope, error: unknown): Promise<SyncOutcome> {
  const { deps } = scope;
  if (error instanceof DuplicateIncidentError) {
    return recordUnlinked(scope, 'duplicate', RECONCILE_DUPLICATE, {
      kind: 'duplicate',
      status: error.status,
    });
  }
  const kind = incidentFailureKind(error);
  const failure = describeIncidentFailure(error);
  if (kind === 'unknown') {
    return recordUnlinked(scope, 'failed', RECONCILE_OUTCOME_UNKNOWN, {
      kind: 'lost_answer',
      failure,
    });
  }
  if (kind === 'not_acted' && !deps.lastAttempt) {
    // the service certainly did not act: the claim is released so the job's retry reports again
    await dropClaim(scope);
    throw error;
  }
  // the service's answer is recorded before the ticket is written: a write put off writes the
  // note on the next run and never reports again
  await recordRefused(scope, kind === 'not_acted' ? 'unavailable' : 'refused', failure);
  await releaseRequest(scope);
  return writeRefusedNote(scope, kind === 'not_acted' ? 'unavailable' : 'refused', failure);
}

/** refused -> none: the agent is told, then the claim goes so the threat may be reported again. */
async function writeRefusedNote(
  scope: ReportScope,
  state: RefusedState,
  failure: string,
): Promise<SyncOutcome> {
  const { mode } = scope;
  const unavailable = state === 'unavailable';
  await writeForAgent(scope, {
    note: reportNotTakenNote(noteTexts(scope.ctx.noteLocale), {
      mode,
      failure,
      unavailable,
      submitTag: SUBMIT_TAG_OF[mode],
    }),
    removeTags: SUBMIT_TAGS,
  });
  await dropClaim(scope);
  return {
    status: 'failed_permanently',
    reason: `report ${unavailable ? 'not accepted' : 'rejected'}: ${failure}`,
  };
}

/** claimed -> reported, then on to the link. */
async function reported(
  scope: ReportScope,
  request: ReportRequest,
  result: ReportResult,
): Promise<SyncOutcome> {
  const { deps, ctx } = scope;
  const reportRef = result.id;
  const dashboardUrl = dashboardLink(result.url);
  // before the link exists, so the events this report causes already find what it produced
  await untilStored(() =>
    recordReportHistory(deps.db, ctx.accountId, reportRef, [result.message]),
  );
  if (request.comment) {
    const text = request.comment;
    await untilStored(() => recordReportComment(deps.db, ctx.accountId, reportRef, text));
  }
  await recordReported(scope, reportRef, dashboardUrl);
  return linkReported(scope, reportRef, dashboardUrl, request);
}

async function resumeAttempt(scope: ReportScope, attempt: ReportAttempt): Promise<SyncOutcome> {
  const state = stateOf(attempt);
  switch (state.kind) {
    case 'claimed':
      // a worker died between claiming and recording the answer: the threat may be reported
      return recordUnlinked(scope, 'failed', RECONCILE_OUTCOME_UNKNOWN, {
        kind: 'stopped_while_sending',
      });
    case 'reported':
      return linkReported(scope, state.reportRef, state.dashboardUrl, undefined);
    case 'linked': {
      if (state.finished) return { status: 'skipped', reason: 'already reported and linked' };
      const link = await linkOfTicket(scope);
      if (!link)
        throw new Error(
          `report attempt of ticket ${scope.ticketId} is linked but the link is missing`,
        );
      return markTicketLinked(scope, link, undefined);
    }
    case 'unlinked':
      if (state.finished)
        return { status: 'skipped', reason: `report already handled (${state.state})` };
      return writeUnlinkedNote(scope, state.state, state.reason);
    case 'refused':
      return writeRefusedNote(scope, state.state, state.failure);
  }
}

/** The report succeeded: resolve the id events carry, then save the link before touching the ticket. */
async function linkReported(
  scope: ReportScope,
  reportRef: string,
  dashboardUrl: string | null,
  /** What this run read before reporting; undefined when resuming an earlier run. */
  atReport: { ticket: TTicket; comments: TComment[] } | undefined,
): Promise<SyncOutcome> {
  const { deps, ctx, ticketId } = scope;
  // events carry the list id, a report answers with a reference; both address the incident
  const detail = await ctx.incidents().incidents.retrieve(reportRef);
  const readAt = nowOf(deps);
  const incidentId = detail.id;
  // The history the incident has right after the report is what the report produced. A resumed
  // run reads it later, when it may hold news as well: it keeps only the service's answer.
  if (atReport) {
    await recordReportHistory(
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
    dashboardUrl,
    // what duplicates are found by; a resumed run no longer holds the value it reported
    threatValue: atReport
      ? reportedThreatValue(customFieldValue(atReport.ticket, ctx.fields.threat))
      : null,
    // the sidebar says takedown or monitoring was asked for until the incident moves on
    requested: {
      action: scope.mode === 'monitor' ? 'monitor' : 'takedown',
      status: detail.status,
      at: nowOf(deps),
    },
  });
  if (save.saved) {
    link = save.link;
  } else if (save.reason === 'claimed') {
    // a worker is opening a ticket for this incident: once it finishes, the link either collides
    // with its ticket or is free; the queue's retry finds out, its last try gives up to a person
    if (!deps.lastAttempt)
      throw new Error(`incident ${incidentId} is claimed by a worker opening its ticket; retry`);
    return recordUnlinked(scope, 'failed', RECONCILE_LINK_CONFLICT, {
      kind: 'ticket_being_opened',
      incidentId,
    });
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
      return recordUnlinked(scope, 'failed', RECONCILE_LINK_CONFLICT, {
        kind: 'link_collides',
        incidentId,
        other,
      });
    }
    link = existing; // saved by an earlier run that stopped before recording it
  }
  const reported = atReport?.comments ?? (await readTicketComments(ctx.zendesk, ticketId)).comments;
  await markCommentsReported(deps, ctx, link, reported);
  await recordLinked(scope, incidentId);
  return markTicketLinked(scope, link, atReport?.ticket, { status: detail.status, readAt });
}

async function markTicketLinked(
  scope: ReportScope,
  link: IncidentLink,
  /** The ticket as read before reporting; undefined when resuming, so it is read again. */
  readBeforeReport: TTicket | undefined,
  /** The incident's status as the detail read after the report said, and when (not on a resume). */
  current?: { status: string; readAt: Date },
): Promise<SyncOutcome> {
  const { deps, ctx, ticketId, mode } = scope;
  const resuming = readBeforeReport === undefined;
  const ticket = readBeforeReport ?? (await ctx.zendesk.tickets.show(ticketId));
  // a resumed run may follow an update that reached Zendesk without its answer reaching us
  // The field holds the report response's id (contract); the link keeps it beside the id events
  // carry, so either resolves the ticket (docs/architecture.md, "Incident ID field").
  const fieldValue = link.reportRef ?? link.incidentId;
  const alreadyWritten =
    resuming &&
    customFieldValue(ticket, ctx.fields.incidentId) === fieldValue &&
    ticket.tags.includes(TAG_LINKED);
  if (!alreadyWritten) {
    const threat = customFieldValue(ticket, ctx.fields.threat);
    await writeForAgent(scope, {
      note: reportedNote(noteTexts(ctx.noteLocale), { mode, threat, fieldValue }),
      fields: [
        { id: ctx.fields.incidentId, value: fieldValue },
        ...(current ? await statusFieldWithLink(scope, current) : []),
      ],
      addTags: [TAG_LINKED],
      // unlinked too: a retried link whose own update was refused left that tag
      removeTags: [...SUBMIT_TAGS, TAG_UNLINKED],
    });
  }
  await recordFinished(scope);
  await forwardReportedEvidence(deps, ctx, link); // the reported ticket's files
  return { status: 'applied', detail: `linked to incident ${link.incidentId}` };
}

/**
 * The Incident Status field, written with the link so it is never empty until the first event: the
 * status the detail showed, unless an event newer than that read has set the field already
 * (ticket-event-order.ts), or the drop-down has no option for it.
 */
async function statusFieldWithLink(
  { deps, ctx, ticketId }: ReportScope,
  current: { status: string; readAt: Date },
): Promise<{ id: number; value: string }[]> {
  const value = statusOptionValue(current.status);
  if (ctx.fields.status === null || value === undefined) return [];
  const claim = await advanceTicketOrder(
    deps.db,
    ctx.accountId,
    ticketId,
    current.readAt,
    current.status,
  );
  return claim.statusField ? [{ id: ctx.fields.status, value }] : [];
}

/** 409, 200 without id, an unknown outcome or a link conflict: never retried, reconciled by a person. */
async function recordUnlinked(
  scope: ReportScope,
  state: UnlinkedState,
  reason: string,
  why: UnlinkedReason,
): Promise<SyncOutcome> {
  const { deps, ctx, ticketId } = scope;
  // the entry (admin page) reads English; the attempt keeps the reason for the note's language
  const detail = unlinkedDetail(why);
  await recordUnlinkedState(scope, state, why);
  // a resumed run goes straight to the note: the entry is written with the state, or waits for it
  await untilStored(() =>
    deps.db.prisma.reconciliationEntry.upsert({
      where: { accountId_ticketId: { accountId: ctx.accountId, ticketId: BigInt(ticketId) } },
      create: { accountId: ctx.accountId, ticketId: BigInt(ticketId), reason, detail },
      update: { reason, detail, resolvedAt: null },
    }),
  );
  return writeUnlinkedNote(scope, state, why);
}

async function writeUnlinkedNote(
  scope: ReportScope,
  state: UnlinkedState,
  reason: UnlinkedReason | string,
): Promise<SyncOutcome> {
  const { mode, ctx } = scope;
  await writeForAgent(scope, {
    note: notLinkedNote(noteTexts(ctx.noteLocale), { mode, state, reason }),
    addTags: [TAG_UNLINKED],
    removeTags: SUBMIT_TAGS,
  });
  await recordFinished(scope);
  return { status: 'applied', detail: `not linked (${state}): in reconciliation` };
}

/** The report's answer on the ticket: the agent waits for it, so it goes before incident news. */
function writeForAgent({ deps, ctx, ticketId }: ReportScope, change: TicketChange): Promise<void> {
  return updateTicket(ctx, deps.db, ticketId, change, { priority: true, now: deps.now });
}

function reportedThreatValue(fieldValue: unknown): string | null {
  return typeof fieldValue === 'string' && fieldValue.trim() ? normalizeThreat(fieldValue) : null;
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

function linkOfTicket({ deps, ctx, ticketId }: ReportScope) {
  return deps.db.prisma.incidentLink.findUnique({
    where: { accountId_ticketId: { accountId: ctx.accountId, ticketId: BigInt(ticketId) } },
  });
}

// Report: ticket -> incident. A threat is reported at most once per ticket and mode, across
// crashes and redeliveries: the ReportAttempt row is written before the POST and moves through
// the states of report-attempt.ts (ReportState). A report the service refused, or never accepted,
// created nothing: the delivery's receipt is released (releaseRequest) and, once the agent's note
// is written, its row dropped, so the agent re-adding the submit tag reports anew. Every ticket
// write after the service answered may be put off (TicketWriteDeferred): the job's next run
// resumes from the recorded state and only writes. What the agent reads: notes/report-notes.ts.
// An accepted report goes on to its link in report-link.ts; one left unlinked to reconciliation in
// report-unlinked.ts.
import { isUniqueViolation, type ReportAttempt } from '@incident-desk/db';
import {
  DuplicateIncidentError,
  type TReportRequest,
  type ReportResult,
} from '@incident-desk/incident-api';
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
  RECONCILE_DUPLICATE,
  RECONCILE_OUTCOME_UNKNOWN,
  reportNotTakenNote,
  threatProblemText,
  type ReportMode,
} from '../../notes/report-notes';
import { noteTexts } from '../../notes/texts';
import { normalizeText } from '../../notes/normalize';
import type { SyncOutcome } from '../job-outcome';
import { recordReportComment, recordReportHistory } from '../echo-ledger';
import { describeIncidentFailure, incidentFailureKind } from '../service-failure';
import { readTicketComments } from './read-ticket-comments';
import { reportTargetOf } from './threat-report-target';
import type { SyncDeps } from '../sync-deps';
import { untilStored } from '../until-stored';
import {
  claimReport,
  dropClaim,
  findAttempt,
  recordRefused,
  recordReported,
  stateOf,
  type RefusedState,
  type ReportScope,
} from './report-attempt';
import { linkOfTicket, linkReported, markTicketLinked } from './report-link';
import { recordUnlinked, writeForAgent, writeUnlinkedNote } from './report-unlinked';
import { SUBMIT_TAGS, TAG_SUBMIT, TAG_SUBMIT_MONITOR } from './ticket-tags';
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
  await untilStored(() => recordReportHistory(deps.db, ctx.accountId, reportRef, [result.message]));
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

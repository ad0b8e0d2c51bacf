// The report flow's first step (report-flow.ts): the ticket, its threat and description read as a
// report request; or why there is nothing to report.
import type { TReportRequest } from '@incident-desk/incident-api';
import {
  type AccountContext,
  isZendeskForbidden,
  isZendeskNotFound,
  type TComment,
  type TTicket,
  type TUser,
} from '../../accounts';
import { releaseReceipt } from '../../ingest';
import { normalizeText, type ThreatProblem } from '../../notes';
import type { SyncOutcome } from '../../worker';
import { readTicketComments } from './read-ticket-comments';
import type { ReportScope } from './report-attempt';
import { submitTagOf } from './report-agent-notes';
import { reportTargetOf } from './threat-report-target';
import { customFieldValue, emailOf, ticketOrSkip } from './ticket-values';

/** What this run read and will report. */
export interface ReportRequest {
  ticket: TTicket;
  comments: TComment[];
  report: TReportRequest;
  comment: string;
}

export type RequestRead =
  | { kind: 'read'; request: ReportRequest }
  /** Nothing to report: the ticket is gone, or the submit tag no longer on it. */
  | { kind: 'skip'; outcome: SyncOutcome }
  /** The Threat field holds nothing the service would take: the agent is to be told. */
  | { kind: 'invalid'; problem: ThreatProblem; threat: unknown };

export async function readReportRequest(scope: ReportScope): Promise<RequestRead> {
  const { ctx, ticketId, mode } = scope;
  const read = await ticketOrSkip(ctx, ticketId);
  if ('skipped' in read) return { kind: 'skip', outcome: read.skipped };
  const { ticket } = read;
  if (scope.byTag && !ticket.tags.includes(submitTagOf(mode))) {
    // A late redelivery of a request already answered (the tag is removed then), or a withdrawn
    // one: nothing to report, and the tag added again is a new request.
    await releaseRequest(scope);
    return {
      kind: 'skip',
      outcome: { status: 'skipped', reason: `tag ${submitTagOf(mode)} no longer on the ticket` },
    };
  }
  const threatValue = customFieldValue(ticket, ctx.fields.threat);
  const target = reportTargetOf(threatValue);
  if (!target.ok) return { kind: 'invalid', problem: target.problem, threat: threatValue };

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
  return { kind: 'read', request: { ticket, comments, report, comment } };
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
    if (isZendeskForbidden(error) || isZendeskNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * This request created nothing: its receipt is moved aside before the submit tag is removed, so
 * adding the tag again is accepted as a new request however soon it comes. A stale delivery
 * accepted meanwhile finds the same ticket and at most reports what is now asked; a ticket never
 * gets a second report, because a report under way or done keeps its ReportAttempt row.
 */
export async function releaseRequest({ deps }: ReportScope): Promise<void> {
  if (deps.receiptId) await releaseReceipt(deps.db, deps.receiptId);
}

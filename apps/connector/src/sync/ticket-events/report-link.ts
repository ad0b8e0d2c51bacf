// A report the service accepted, from its answer to a linked ticket: the incident's detail is read
// for the id events carry and what the report produced (the echo ledger's report history), the
// link is saved under the incident's claim, and the ticket is marked linked with the report's note.
// Leaf steps of the report flow (report-flow.ts): what comes next is the flow's to decide.
import type { IncidentLink } from '@incident-desk/db';
import { normalizeThreat } from '@incident-desk/threat-text';
import type { TComment, TTicket } from '../../accounts';
import { noteTexts, reportedNote } from '../../notes';
import { recordReportHistory } from '../echo-ledger';
import { saveLinkUnderClaim } from '../incident-link-claim';
import { statusFieldWithLink } from '../status-field-with-link';
import { nowOf } from '../sync-deps';
import { readTicketComments } from './read-ticket-comments';
import { recordFinished, recordLinked, type ReportScope } from './report-attempt';
import { writeForAgent } from './report-agent-notes';
import { forwardReportedEvidence, markCommentsReported } from './reported-evidence';
import { SUBMIT_TAGS, TAG_LINKED, TAG_UNLINKED } from '../../setup';
import { customFieldValue } from './ticket-values';

/** The incident's status as the detail read after the report said, and when. */
export interface StatusAtLink {
  status: string;
  readAt: Date;
}

export type ReportLinkSave =
  | { kind: 'link_saved'; link: IncidentLink; current: StatusAtLink }
  /** A worker is opening a ticket for this incident. */
  | { kind: 'link_claimed'; incidentId: string; lastAttempt: boolean }
  /** The incident, the ticket or the reference is linked otherwise. */
  | { kind: 'link_collides'; incidentId: string; other: string };

/**
 * reported -> linked: resolves the id events carry, then saves the link before touching the
 * ticket; the comments the report carried are marked reported and the attempt recorded linked.
 */
export async function saveReportLink(
  scope: ReportScope,
  reportRef: string,
  dashboardUrl: string | null,
  /** What this run read before reporting; undefined when resuming an earlier run. */
  atReport: { ticket: TTicket; comments: TComment[] } | undefined,
): Promise<ReportLinkSave> {
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
    // once the worker opening its ticket finishes, the link either collides with that ticket or
    // is free: the flow decides whether the queue's retry finds out
    return { kind: 'link_claimed', incidentId, lastAttempt: deps.lastAttempt ?? false };
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
      return { kind: 'link_collides', incidentId, other };
    }
    link = existing; // saved by an earlier run that stopped before recording it
  }
  const reported = atReport?.comments ?? (await readTicketComments(ctx.zendesk, ticketId)).comments;
  await markCommentsReported(deps, ctx, link, reported);
  await recordLinked(scope, incidentId);
  return { kind: 'link_saved', link, current: { status: detail.status, readAt } };
}

/** linked -> finished: the ticket shows the link and the report's note; the evidence follows. */
export async function writeLinkedTicket(
  scope: ReportScope,
  link: IncidentLink,
  /** The ticket as read before reporting; undefined when resuming, so it is read again. */
  readBeforeReport: TTicket | undefined,
  /** The incident's status at the link (not on a resume). */
  current: StatusAtLink | undefined,
): Promise<void> {
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
        ...(current
          ? await statusFieldWithLink(scope.deps.db, scope.ctx, scope.ticketId, current)
          : []),
      ],
      addTags: [TAG_LINKED],
      // unlinked too: a retried link whose own update was refused left that tag
      removeTags: [...SUBMIT_TAGS, TAG_UNLINKED],
    });
  }
  await recordFinished(scope);
  await forwardReportedEvidence(deps, ctx, link); // the reported ticket's files
}

function reportedThreatValue(fieldValue: unknown): string | null {
  return typeof fieldValue === 'string' && fieldValue.trim() ? normalizeThreat(fieldValue) : null;
}

/** A resumed linked attempt's link: it was saved before the attempt was recorded linked. */
export async function savedLinkOf(scope: ReportScope): Promise<IncidentLink> {
  const link = await linkOfTicket(scope);
  if (!link)
    throw new Error(`report attempt of ticket ${scope.ticketId} is linked but the link is missing`);
  return link;
}

export function linkOfTicket({ deps, ctx, ticketId }: ReportScope) {
  return deps.db.prisma.incidentLink.findUnique({
    where: { accountId_ticketId: { accountId: ctx.accountId, ticketId: BigInt(ticketId) } },
  });
}

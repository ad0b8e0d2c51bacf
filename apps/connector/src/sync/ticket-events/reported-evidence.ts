// The files on a ticket when it is reported (the end user's original message first among them) are
// ticket attachments the contract sends as evidence. The report itself is JSON, so they go after
// it, once the incident is linked: one attach request per file, each within the 50 MB limit
// (the report's own limits, 12 files and under 10 MB, bind only the report request). A file
// that does not make it is named, with the reason, in one internal note.
//
// Durable and at most once, like forwarded comments: the report marks each comment it carried in
// ForwardedComment; one with files to send is marked EVIDENCE_PENDING, claimed (IN_FLIGHT) before
// its upload and settled after. A run that stops midway leaves pending rows for the next run (the
// report resumed, or any later comment job); a claimed row left in flight is never resent.
import type { IncidentLink } from '@incident-desk/db';
import type { AccountContext, TComment } from '../../accounts';
import { noteTexts } from '../../notes';
import { writeOwedNote } from '../owed-notes';
import { readTicketComments } from './read-ticket-comments';
import { nowOf, type SyncDeps } from '../sync-deps';
import { untilStored } from '../until-stored';
import { describeSkippedFile, uploadEvidence, type SkippedFile } from './upload-evidence';

const PREDATES_REPORT = 'predates the report';
export const EVIDENCE_PENDING = 'went with the report; its files wait to go as evidence';
const EVIDENCE_IN_FLIGHT =
  'went with the report; in flight: if this remains, the worker stopped while uploading its files; check the incident';

/** Whether a comment's files go to the incident: any public comment's, internal notes' when opted in. */
function forwardsFilesOf(ctx: AccountContext, comment: TComment): boolean {
  return comment.attachments.length > 0 && (comment.public || ctx.settings.forwardInternalNotes);
}

/** Comments that existed when the threat was reported went with it: never forwarded as comments. */
export async function markCommentsReported(
  deps: SyncDeps,
  ctx: AccountContext,
  link: Pick<IncidentLink, 'ticketId' | 'incidentId'>,
  comments: readonly TComment[],
): Promise<void> {
  if (comments.length === 0) return;
  await deps.db.prisma.forwardedComment.createMany({
    data: comments.map((comment) => ({
      accountId: ctx.accountId,
      commentId: BigInt(comment.id),
      ticketId: link.ticketId,
      incidentId: link.incidentId,
      status: 'skipped' as const,
      detail: forwardsFilesOf(ctx, comment) ? EVIDENCE_PENDING : PREDATES_REPORT,
    })),
    skipDuplicates: true,
  });
}

/** Uploads the files of the reported comments still pending; one note names any skipped. */
export async function forwardReportedEvidence(
  deps: SyncDeps,
  ctx: AccountContext,
  link: Pick<IncidentLink, 'ticketId' | 'incidentId'>,
  /** The ticket's comments if the caller has them; read when needed otherwise. */
  known?: readonly TComment[],
): Promise<{ uploaded: number; skipped: SkippedFile[] }> {
  const { db } = deps;
  const pending = await db.prisma.forwardedComment.findMany({
    where: { accountId: ctx.accountId, ticketId: link.ticketId, detail: EVIDENCE_PENDING },
    orderBy: { commentId: 'asc' },
    select: { commentId: true },
  });
  if (pending.length === 0) return { uploaded: 0, skipped: [] };
  const comments = known ?? (await readTicketComments(ctx.zendesk, Number(link.ticketId))).comments;
  const skipped: SkippedFile[] = [];
  let uploaded = 0;
  for (const { commentId } of pending) {
    const key = { accountId: ctx.accountId, commentId };
    const claim = await db.prisma.forwardedComment.updateMany({
      where: { ...key, detail: EVIDENCE_PENDING },
      data: { detail: EVIDENCE_IN_FLIGHT },
    });
    if (claim.count === 0) continue; // another run has it
    const comment = comments.find((c) => BigInt(c.id) === commentId);
    const outcome = comment
      ? await uploadEvidence(db, ctx, link.incidentId, comment.attachments, () => nowOf(deps))
      : { uploaded: [], skipped: [] };
    uploaded += outcome.uploaded.length;
    skipped.push(...outcome.skipped);
    const detail =
      `${PREDATES_REPORT}; ` +
      (comment ? `files sent as evidence: ${outcome.uploaded.length}` : 'no longer on the ticket') +
      (outcome.skipped.length
        ? `; files skipped: ${outcome.skipped.map((file) => describeSkippedFile(file)).join('; ')}`
        : '');
    // settles the claim even across a database restart (until-stored.ts)
    await untilStored(() =>
      db.prisma.forwardedComment.update({ where: { accountId_commentId: key }, data: { detail } }),
    );
  }
  if (skipped.length > 0) {
    const texts = noteTexts(ctx.noteLocale);
    // the uploads are settled already: kept until written, even when the write is put off
    await writeOwedNote(
      ctx,
      db,
      Number(link.ticketId),
      [
        texts.evidence.notSentAtReport,
        ...skipped.map((file) => `- ${describeSkippedFile(file, texts)}`),
      ].join('\n'),
      deps.now,
    );
  }
  return { uploaded, skipped };
}

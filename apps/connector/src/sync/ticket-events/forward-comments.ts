// Comment: ticket -> incident. Every comment of a linked ticket is handled once (its id kept in
// ForwardedComment): public agent replies are forwarded verbatim (only non-breaking spaces made
// ordinary, as the contract asks) with the agent's
// email as author, internal notes only when the account opts in; the connector's own notes and
// end users' words never. Attachments go along as evidence, an end user's public reply's too
// (the contract sends "ticket attachments as evidence", not only agents'); a file skipped is
// named in an internal note.
import { isUniqueViolation, type IncidentLink } from '@incident-desk/db';
import type { AccountContext, TComment, TUser } from '../../accounts';
import { EN, type ForwardFailure, normalizeText, noteTexts } from '../../notes';
import type { SyncOutcome } from '../../worker';
import { writeOwedNote } from '../owed-notes';
import { isOwnNote } from '../ticket-writer';
import { settleOwnCall, startOwnCall } from '../echo-ledger';
import { describeIncidentFailure, incidentFailureKind } from '../service-failure';
import { readTicketComments } from './read-ticket-comments';
import { nowOf, type SyncDeps } from '../sync-deps';
import { untilStored } from '../until-stored';
import { emailOf } from './ticket-values';
import { forwardReportedEvidence } from './reported-evidence';
import { describeSkippedFile, uploadEvidence, type SkippedFile } from './upload-evidence';

type Decision =
  { forward: true; text: string; author: string | undefined } | { forward: false; reason: string };

/** Written before the comment is posted: if it stays, the outcome of that post is unknown. */
const IN_FLIGHT =
  'in flight: if this remains, the worker stopped while posting; check the incident';

export async function forwardComments(
  deps: SyncDeps,
  ctx: AccountContext,
  ticketId: number,
): Promise<SyncOutcome> {
  const { db } = deps;
  const link = await db.prisma.incidentLink.findUnique({
    where: { accountId_ticketId: { accountId: ctx.accountId, ticketId: BigInt(ticketId) } },
  });
  if (!link) return { status: 'skipped', reason: 'ticket not linked to an incident' };
  // files of the reported comments a stopped report run left behind
  await forwardReportedEvidence(deps, ctx, link);

  const { pending, users } = await unhandledComments(deps, ctx, ticketId);

  const skippedFiles: SkippedFile[] = [];
  const failures: { commentId: number; failure: ForwardFailure }[] = [];
  let forwarded = 0;
  let retryLater: unknown;
  for (const comment of pending) {
    const decision = await decide(deps, ctx, ticketId, comment, users.get(comment.author_id));
    if (!decision.forward) {
      await recordSkipped(deps, ctx, link, comment, decision.reason);
      continue;
    }
    const claimed = await claim(deps, ctx, link, comment, decision.text);
    if (!claimed) continue;
    if (decision.text) {
      const own = claimed.ownCallId;
      try {
        const { text, author } = decision;
        await ctx.incidents().incidents.comment(link.incidentId, {
          comment: text,
          ...(author ? { author } : {}),
        });
      } catch (error) {
        const kind = incidentFailureKind(error);
        // an echo can only come if the comment may have reached the incident
        if (own) await untilStored(() => settleOwnCall(db, own, error, nowOf(deps)));
        if (kind === 'not_acted' && !deps.lastAttempt) {
          await release(deps, ctx, comment);
          retryLater = error;
          break;
        }
        const failure: ForwardFailure =
          kind === 'unknown'
            ? { kind: 'outcome_unknown', failure: describeIncidentFailure(error) }
            : { kind: 'not_forwarded', failure: describeIncidentFailure(error) };
        // what the database keeps (admin page, sidebar) reads English; the note the account's language
        const detail = EN.evidence.forwardFailure(failure);
        await setStatus(deps, ctx, comment, 'failed', detail);
        failures.push({ commentId: comment.id, failure });
        continue;
      }
      if (own) await untilStored(() => settleOwnCall(db, own, undefined, nowOf(deps)));
    }
    const evidence = await uploadEvidence(db, ctx, link.incidentId, comment.attachments, () =>
      nowOf(deps),
    );
    skippedFiles.push(...evidence.skipped);
    const details = [
      ...(decision.text ? [] : ['files only']),
      ...(evidence.skipped.length
        ? [`files skipped: ${evidence.skipped.map((file) => describeSkippedFile(file)).join('; ')}`]
        : []),
    ];
    await setStatus(deps, ctx, comment, 'forwarded', details.length ? details.join('; ') : null);
    forwarded += 1;
  }

  await noteWhatWasNotSent(deps, ctx, ticketId, skippedFiles, failures);
  if (retryLater) throw retryLater;
  if (forwarded === 0 && failures.length === 0)
    return { status: 'skipped', reason: 'no comment to forward' };
  return {
    status: 'applied',
    detail: `forwarded ${forwarded} ${forwarded === 1 ? 'comment' : 'comments'}${failures.length ? `, ${failures.length} failed` : ''}`,
  };
}

/** The ticket's comments not handled yet, oldest first (the incident reads them in order). */
async function unhandledComments(deps: SyncDeps, ctx: AccountContext, ticketId: number) {
  const handledRows = await deps.db.prisma.forwardedComment.findMany({
    where: { accountId: ctx.accountId, ticketId: BigInt(ticketId) },
    select: { commentId: true },
  });
  const handled = new Set(handledRows.map((row) => row.commentId));
  const { comments, users } = await readTicketComments(ctx.zendesk, ticketId, (page) =>
    page.some((comment) => handled.has(BigInt(comment.id))),
  );
  return {
    pending: comments.filter((comment) => !handled.has(BigInt(comment.id))).reverse(),
    users,
  };
}

/** One note for the files skipped and the comments not forwarded, in the account's language. */
async function noteWhatWasNotSent(
  deps: SyncDeps,
  ctx: AccountContext,
  ticketId: number,
  skippedFiles: SkippedFile[],
  failures: { commentId: number; failure: ForwardFailure }[],
): Promise<void> {
  if (skippedFiles.length === 0 && failures.length === 0) return;
  const texts = noteTexts(ctx.noteLocale);
  const lines = [
    ...(skippedFiles.length
      ? [texts.evidence.notSent, ...skippedFiles.map((f) => `- ${describeSkippedFile(f, texts)}`)]
      : []),
    ...(failures.length
      ? [
          texts.evidence.notForwarded,
          ...failures.map(
            (f) =>
              `- ${texts.evidence.comment(f.commentId, texts.evidence.forwardFailure(f.failure))}`,
          ),
        ]
      : []),
  ];
  // the comments are settled already: kept until written, even when the write is put off
  await writeOwedNote(ctx, deps.db, ticketId, lines.join('\n'), deps.now);
}

async function decide(
  deps: SyncDeps,
  ctx: AccountContext,
  ticketId: number,
  comment: TComment,
  author: TUser | undefined,
): Promise<Decision> {
  const raw = comment.plain_body ?? comment.body ?? '';
  // before the author check: the connector's user may be an agent whose notes look like replies
  if (await isOwnNote(deps.db, ctx.accountId, ticketId, raw, nowOf(deps))) {
    return { forward: false, reason: 'the connector’s own note' };
  }
  if (!author) return { forward: false, reason: 'author unknown' };
  if (author.role !== 'agent' && author.role !== 'admin') {
    // an end user's words stay on the ticket; the files of a public reply are ticket evidence
    if (comment.public && comment.attachments.length > 0)
      return { forward: true, text: '', author: undefined };
    return { forward: false, reason: 'not written by an agent' };
  }
  if (!comment.public && !ctx.settings.forwardInternalNotes) {
    return { forward: false, reason: 'internal note (the account forwards public replies only)' };
  }
  const text = normalizeText(raw) === '' ? '' : withOrdinarySpaces(raw);
  if (text === '' && comment.attachments.length === 0)
    return { forward: false, reason: 'empty comment' };
  return { forward: true, text, author: emailOf(author) };
}

/**
 * The agent's text as written: runs of spaces, indentation and line breaks stay. Only the
 * non-breaking spaces Zendesk puts in plain_body become ordinary ones; echo comparisons normalise
 * further on their own.
 */
function withOrdinarySpaces(text: string): string {
  return text.replace(/[\u00a0\u2007\u202f]/g, ' ');
}

function commentKey(ctx: AccountContext, comment: TComment) {
  return { accountId_commentId: { accountId: ctx.accountId, commentId: BigInt(comment.id) } };
}

/**
 * Takes the comment for this worker (null when another run already handles it), recording with
 * the claim the call about to be made in the echo ledger (the text posted, unsettled until the
 * service answers): the incident's history echo of it can arrive before the answer. One
 * transaction, so a claim never stands without its record.
 */
async function claim(
  deps: SyncDeps,
  ctx: AccountContext,
  link: IncidentLink,
  comment: TComment,
  text: string,
): Promise<{ ownCallId: string | null } | null> {
  try {
    return await deps.db.prisma.$transaction(async (tx) => {
      await tx.forwardedComment.create({
        data: handledRow(ctx, link, comment, 'failed', IN_FLIGHT),
      });
      if (!text) return { ownCallId: null };
      const call = { accountId: ctx.accountId, incidentId: link.incidentId, comment: text };
      const own = await startOwnCall(tx, call, nowOf(deps));
      return { ownCallId: own.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** A comment that is not forwarded is recorded as handled, unless another run recorded it. */
async function recordSkipped(
  deps: SyncDeps,
  ctx: AccountContext,
  link: IncidentLink,
  comment: TComment,
  reason: string,
): Promise<void> {
  try {
    await deps.db.prisma.forwardedComment.create({
      data: handledRow(ctx, link, comment, 'skipped', reason),
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}

function handledRow(
  ctx: AccountContext,
  link: IncidentLink,
  comment: TComment,
  status: 'skipped' | 'failed',
  detail: string,
) {
  return {
    accountId: ctx.accountId,
    commentId: BigInt(comment.id),
    ticketId: link.ticketId,
    incidentId: link.incidentId,
    status,
    detail,
  };
}

/** Settles a claimed comment; waits out a database restart, or the claim would read as in flight. */
function setStatus(
  deps: SyncDeps,
  ctx: AccountContext,
  comment: TComment,
  status: 'forwarded' | 'failed',
  detail: string | null,
) {
  return untilStored(() =>
    deps.db.prisma.forwardedComment.update({
      where: commentKey(ctx, comment),
      data: { status, detail },
    }),
  );
}

/** The service certainly did not take the comment: it is free for the job's retry. */
function release(deps: SyncDeps, ctx: AccountContext, comment: TComment) {
  return untilStored(() =>
    deps.db.prisma.forwardedComment.deleteMany({
      where: { accountId: ctx.accountId, commentId: BigInt(comment.id) },
    }),
  );
}

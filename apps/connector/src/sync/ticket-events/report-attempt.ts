// The ReportAttempt row of one ticket and mode: what a report has reached, as a type, and the
// small transitions between its states. The row is written before the POST, so a report is made at
// most once per ticket and mode across crashes and redeliveries (report-flow.ts, whose states
// these rows persist):
//   claimed  (state sending, no ref) -> the outcome is unknown: never resend, reconcile instead
//   reported (state sending + ref)   -> the link is still to be saved
//   linked                            -> the ticket update is still to be written (until finished)
//   unlinked (duplicate | failed)     -> the ticket note is still to be written (until finished)
//   refused (refused | unavailable)   -> the service created nothing; the ticket note is still to be
//                                        written, then the row is dropped
// A report the service refused, or never accepted, created nothing: once the agent's note is
// written its row is dropped (a retry before that writes the note, never reports again). The
// transitions out of `claimed` settle a POST already made, so they wait out a database restart
// (untilStored): a claim left behind would read as a report whose answer was lost.
import { isUniqueViolation, type ReportAttempt } from '@incident-desk/db';
import type { AccountContext } from '../../accounts';
import { unlinkedDetail, type ReportMode, type UnlinkedReason } from '../../notes';
import { nowOf, type SyncDeps } from '../sync-deps';
import { untilStored } from '../until-stored';

export interface ReportScope {
  deps: SyncDeps;
  ctx: AccountContext;
  ticketId: number;
  mode: ReportMode;
  /** Asked for by the submit tag (a trigger), not by the sidebar: the tag must still be there. */
  byTag: boolean;
  reportedBy?: string;
}

export type UnlinkedState = 'duplicate' | 'failed';

/** How the service turned a report down: refused it, or could not take it on the last try. */
export type RefusedState = 'refused' | 'unavailable';

export type ReportState =
  | { kind: 'claimed' }
  | { kind: 'reported'; reportRef: string; dashboardUrl: string | null }
  | { kind: 'linked'; finished: boolean }
  /** `reason` is a string for attempts recorded before reasons were kept as data. */
  | { kind: 'unlinked'; state: UnlinkedState; reason: UnlinkedReason | string; finished: boolean }
  | { kind: 'refused'; state: RefusedState; failure: string };

export function stateOf(attempt: ReportAttempt): ReportState {
  switch (attempt.state) {
    case 'sending':
      return attempt.incidentId
        ? { kind: 'reported', reportRef: attempt.incidentId, dashboardUrl: attempt.dashboardUrl }
        : { kind: 'claimed' };
    case 'linked':
      return { kind: 'linked', finished: attempt.finishedAt !== null };
    case 'duplicate':
    case 'failed':
      return {
        kind: 'unlinked',
        state: attempt.state,
        reason: unlinkedReasonOf(attempt.detail),
        finished: attempt.finishedAt !== null,
      };
    case 'refused':
    case 'unavailable':
      return { kind: 'refused', state: attempt.state, failure: attempt.detail ?? '' };
  }
}

const UNLINKED_KINDS: ReadonlySet<string> = new Set([
  'duplicate',
  'lost_answer',
  'stopped_while_sending',
  'ticket_being_opened',
  'link_collides',
]);

/** The reason an unlinked attempt keeps (JSON), or the text of one recorded before that. */
export function unlinkedReasonOf(detail: string | null): UnlinkedReason | string {
  if (detail === null) return '';
  try {
    const parsed: unknown = JSON.parse(detail);
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      UNLINKED_KINDS.has(String((parsed as { kind?: unknown }).kind))
    )
      return parsed as UnlinkedReason;
  } catch {
    // an English detail of an older attempt
  }
  return detail;
}

function attemptKey({ ctx, ticketId, mode }: ReportScope) {
  return {
    accountId_ticketId_mode: { accountId: ctx.accountId, ticketId: BigInt(ticketId), mode },
  };
}

export function findAttempt(scope: ReportScope) {
  return scope.deps.db.prisma.reportAttempt.findUnique({ where: attemptKey(scope) });
}

/** none -> claimed; throws when another worker claimed it first (its retry sees that state). */
export async function claimReport(scope: ReportScope): Promise<void> {
  const { deps, ctx, ticketId, mode } = scope;
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
    if (!isUniqueViolation(error)) throw error;
    throw new Error(`report of ticket ${ticketId} (${mode}) claimed concurrently`, {
      cause: error,
    });
  }
}

/** claimed | refused -> none: the service certainly did not act (and the agent has been told). */
export async function dropClaim(scope: ReportScope): Promise<void> {
  const { accountId_ticketId_mode: key } = attemptKey(scope);
  await untilStored(() => scope.deps.db.prisma.reportAttempt.deleteMany({ where: key }));
}

/** claimed -> reported. */
export async function recordReported(
  scope: ReportScope,
  reportRef: string,
  dashboardUrl: string | null,
): Promise<void> {
  await untilStored(() =>
    scope.deps.db.prisma.reportAttempt.update({
      where: attemptKey(scope),
      data: { incidentId: reportRef, dashboardUrl },
    }),
  );
}

/** claimed -> refused: the service created nothing; the agent's note is still to be written. */
export async function recordRefused(
  scope: ReportScope,
  state: RefusedState,
  failure: string,
): Promise<void> {
  await untilStored(() =>
    scope.deps.db.prisma.reportAttempt.update({
      where: attemptKey(scope),
      data: { state, detail: failure },
    }),
  );
}

/** reported -> linked. */
export async function recordLinked(scope: ReportScope, incidentId: string): Promise<void> {
  await scope.deps.db.prisma.reportAttempt.update({
    where: attemptKey(scope),
    data: { state: 'linked', detail: `linked to incident ${incidentId}` },
  });
}

/**
 * claimed | reported -> unlinked (a 409, an answer without id, an unknown outcome, a link
 * conflict): never retried, reconciled by a person. The attempt keeps the reason for the note's
 * language; the reconciliation entry (admin page) reads English.
 */
export async function recordUnlinked(
  scope: ReportScope,
  state: UnlinkedState,
  reconcileReason: string,
  why: UnlinkedReason,
): Promise<void> {
  const { deps, ctx, ticketId } = scope;
  const detail = unlinkedDetail(why);
  await untilStored(() =>
    deps.db.prisma.reportAttempt.update({
      where: attemptKey(scope),
      data: { state, detail: JSON.stringify(why) },
    }),
  );
  // a resumed run goes straight to the note: the entry is written with the state, or waits for it
  await untilStored(() =>
    deps.db.prisma.reconciliationEntry.upsert({
      where: { accountId_ticketId: { accountId: ctx.accountId, ticketId: BigInt(ticketId) } },
      create: {
        accountId: ctx.accountId,
        ticketId: BigInt(ticketId),
        reason: reconcileReason,
        detail,
      },
      update: { reason: reconcileReason, detail, resolvedAt: null },
    }),
  );
}

/** linked | unlinked -> finished: the ticket has been written. */
export async function recordFinished(scope: ReportScope): Promise<void> {
  await scope.deps.db.prisma.reportAttempt.update({
    where: attemptKey(scope),
    data: { finishedAt: nowOf(scope.deps) },
  });
}

// A report that ends without a link (a 409, an answer without id, an unknown outcome, a link
// conflict) goes to reconciliation with the agent's note; and the one way a report writes to its
// ticket (for the agent, before incident news).
import { notLinkedNote, unlinkedDetail } from '../../notes/report-notes';
import { noteTexts } from '../../notes/texts';
import type { UnlinkedReason } from '../../notes/texts/note-reasons';
import type { SyncOutcome } from '../job-outcome';
import { updateTicket, type TicketChange } from '../ticket-writer';
import { untilStored } from '../until-stored';
import {
  recordFinished,
  recordUnlinkedState,
  type ReportScope,
  type UnlinkedState,
} from './report-attempt';
import { SUBMIT_TAGS, TAG_UNLINKED } from './ticket-tags';

/** 409, 200 without id, an unknown outcome or a link conflict: never retried, reconciled by a person. */
export async function recordUnlinked(
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

export async function writeUnlinkedNote(
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
export function writeForAgent(
  { deps, ctx, ticketId }: ReportScope,
  change: TicketChange,
): Promise<void> {
  return updateTicket(ctx, deps.db, ticketId, change, { priority: true, now: deps.now });
}

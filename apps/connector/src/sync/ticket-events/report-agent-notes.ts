// What a report tells the agent on its ticket when it ends without a link: an invalid threat, a
// report left unlinked (reconciliation), a report the service refused. Leaf steps of the report
// flow (report-flow.ts); the linked note is written by report-link.ts. The one way a report writes
// to its ticket is writeForAgent.
import {
  invalidThreatNote,
  noteTexts,
  notLinkedNote,
  reportNotTakenNote,
  type ReportMode,
  type ThreatProblem,
  type UnlinkedReason,
} from '../../notes';
import { SUBMIT_TAGS, TAG_SUBMIT, TAG_SUBMIT_MONITOR, TAG_UNLINKED } from '../../setup';
import { updateTicket, type TicketChange } from '../ticket-writer';
import {
  dropClaim,
  recordFinished,
  type RefusedState,
  type ReportScope,
  type UnlinkedState,
} from './report-attempt';

const SUBMIT_TAG_OF: Record<ReportMode, string> = {
  takedown: TAG_SUBMIT,
  monitor: TAG_SUBMIT_MONITOR,
};

/** The tag that asks for a report of this mode. */
export function submitTagOf(mode: ReportMode): string {
  return SUBMIT_TAG_OF[mode];
}

/** The report's answer on the ticket: the agent waits for it, so it goes before incident news. */
export function writeForAgent(
  { deps, ctx, ticketId }: ReportScope,
  change: TicketChange,
): Promise<void> {
  return updateTicket(ctx, deps.db, ticketId, change, { priority: true, now: deps.now });
}

/** Nothing was reported: the agent is told what is wrong with the Threat field. */
export async function writeInvalidThreatNote(
  scope: ReportScope,
  problem: ThreatProblem,
  threat: unknown,
): Promise<void> {
  await writeForAgent(scope, {
    note: invalidThreatNote(noteTexts(scope.ctx.noteLocale), {
      problem,
      threat,
      submitTag: submitTagOf(scope.mode),
    }),
    removeTags: SUBMIT_TAGS,
  });
}

/** unlinked -> finished: the agent is told the report waits for reconciliation. */
export async function writeUnlinkedNote(
  scope: ReportScope,
  state: UnlinkedState,
  reason: UnlinkedReason | string,
): Promise<void> {
  const { mode, ctx } = scope;
  await writeForAgent(scope, {
    note: notLinkedNote(noteTexts(ctx.noteLocale), { mode, state, reason }),
    addTags: [TAG_UNLINKED],
    removeTags: SUBMIT_TAGS,
  });
  await recordFinished(scope);
}

/** refused -> none: the agent is told, then the claim goes so the threat may be reported again. */
export async function writeRefusedNote(
  scope: ReportScope,
  state: RefusedState,
  failure: string,
): Promise<void> {
  const { mode } = scope;
  await writeForAgent(scope, {
    note: reportNotTakenNote(noteTexts(scope.ctx.noteLocale), {
      mode,
      failure,
      unavailable: state === 'unavailable',
      submitTag: submitTagOf(mode),
    }),
    removeTags: SUBMIT_TAGS,
  });
  await dropClaim(scope);
}

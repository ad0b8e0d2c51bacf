// Report: ticket -> incident, as one state machine. A threat is reported at most once per ticket
// and mode, across crashes and redeliveries: the ReportAttempt row (report-attempt.ts) is written
// before the POST and keeps what the report reached, so a run that stops is resumed from it.
//
//   start -> unreported -> requested -> claimed -> answered -> reported -> linked -> done
//     |          |                         |                      |
//     |          +-> done (skipped)        +-> unlinked -> done   +-> unlinked -> done
//     |          +-> invalid -> done       +-> refused  -> done   +-> retry (link claimed)
//     |                                    +-> dropped  -> retry (the queue reports again)
//     +-> the state an earlier run recorded (claimed: unlinked), or done (already linked)
//
// `claimed` is the row in state `sending` without a reference: the POST goes now. A resumed run
// finding it does not know what the POST did and reconciles (unlinked), never reports again. A
// report the service refused, or never accepted, created nothing: the delivery's receipt is
// released and, once the agent's note is written, its row dropped, so the agent re-adding the
// submit tag reports anew. Every ticket write after the service answered may be put off
// (TicketWriteDeferred): the job's next run resumes from the recorded state and only writes.
//
// `transition` is the machine, pure: a state and what its step found give the next state.
// `runStep` runs the one leaf step of a state (report-request.ts, report-send.ts, report-link.ts,
// report-agent-notes.ts, the row's own writes in report-attempt.ts); leaves never call each other
// nor back into the flow. What the agent reads: notes/report-notes.ts.
import type { IncidentLink } from '@incident-desk/db';
import type { AccountContext } from '../../accounts';
import { JobDeferral } from '../../jobs';
import {
  RECONCILE_DUPLICATE,
  RECONCILE_LINK_CONFLICT,
  RECONCILE_OUTCOME_UNKNOWN,
  threatProblemText,
  type ReportMode,
  type ThreatProblem,
  type UnlinkedReason,
} from '../../notes';
import type { SyncOutcome } from '../../worker';
import type { SyncDeps } from '../sync-deps';
import {
  claimReport,
  dropClaim,
  findAttempt,
  recordRefused,
  recordUnlinked,
  stateOf,
  type RefusedState,
  type ReportScope,
  type ReportState,
  type UnlinkedState,
} from './report-attempt';
import { writeInvalidThreatNote, writeRefusedNote, writeUnlinkedNote } from './report-agent-notes';
import {
  linkOfTicket,
  savedLinkOf,
  saveReportLink,
  writeLinkedTicket,
  type ReportLinkSave,
  type StatusAtLink,
} from './report-link';
import {
  readReportRequest,
  releaseRequest,
  type ReportRequest,
  type RequestRead,
} from './report-request';
import { recordAnswer, sendReport, type SendAnswer } from './report-send';

export type { ReportMode };

export type FlowState =
  /** Nothing read yet: an earlier run's attempt, or the ticket's link, decides where to go. */
  | { kind: 'start' }
  /** No report under way or made: the ticket is read for one. */
  | { kind: 'unreported' }
  /** Read, not yet claimed. */
  | { kind: 'requested'; request: ReportRequest }
  /** Nothing to report: the agent is told why the Threat field cannot be reported. */
  | { kind: 'invalid'; problem: ThreatProblem; threat: unknown }
  /** The row is written (state sending): the POST goes now. */
  | { kind: 'claimed'; request: ReportRequest }
  /** The service answered: the answer is recorded before the link. */
  | { kind: 'answered'; request: ReportRequest; answer: ReportAnswer }
  /** The answer is recorded: the link is to be saved (atReport: undefined on a resumed run). */
  | ({ kind: 'reported'; atReport: ReportRequest | undefined } & LinkTarget)
  /** The link is saved (link: undefined on a resumed run, read again): the ticket is to be written. */
  | {
      kind: 'linked';
      link: IncidentLink | undefined;
      atReport: ReportRequest | undefined;
      current: StatusAtLink | undefined;
    }
  /** To reconciliation: recorded (reconcile: undefined) or still to be, then the agent's note. */
  | {
      kind: 'unlinked';
      state: UnlinkedState;
      reason: UnlinkedReason | string;
      reconcile: { reason: string; why: UnlinkedReason } | undefined;
    }
  /** The service created nothing: recorded or still to be, then the agent's note, then no row. */
  | { kind: 'refused'; state: RefusedState; failure: string; recorded: boolean }
  /** The service certainly did not act and the queue will try again: the claim goes first. */
  | { kind: 'dropped'; error: unknown }
  | { kind: 'done'; outcome: SyncOutcome }
  /** The job fails this try; the queue's retry finds the recorded state. */
  | { kind: 'retry'; error: unknown };

type ReportAnswer = Extract<SendAnswer, { kind: 'answered' }>;
type LinkTarget = { reportRef: string; dashboardUrl: string | null };

/** What a state's step found. */
export type FlowEvent =
  | { kind: 'found'; stored: ReportState }
  | { kind: 'already_linked'; incidentId: string }
  | { kind: 'nothing_found' }
  | RequestRead
  | { kind: 'claimed' }
  | SendAnswer
  | ReportLinkSave
  | { kind: 'link_found'; link: IncidentLink }
  /** The step's record is stored. */
  | { kind: 'recorded' }
  /** The ticket is written for the agent. */
  | { kind: 'written' };

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
  let state: FlowState = { kind: 'start' };
  let anew = false;
  try {
    for (;;) {
      if (state.kind === 'done') return state.outcome;
      if (state.kind === 'retry') throw state.error;
      anew ||= state.kind === 'unreported';
      state = transition(state, await runStep(scope, state));
    }
  } catch (error) {
    // The queue's last try: the job ends here (unless it is only put off). With no report under
    // way nothing was created, so the request is released and the submit tag, added again, asks anew.
    if (anew && deps.lastAttempt && !(error instanceof JobDeferral) && !(await findAttempt(scope)))
      await releaseRequest(scope);
    throw error;
  }
}

/** The one leaf step of a state. */
async function runStep(
  scope: ReportScope,
  state: Exclude<FlowState, { kind: 'done' | 'retry' }>,
): Promise<FlowEvent> {
  switch (state.kind) {
    case 'start':
      return lookUpEarlierRun(scope);
    case 'unreported':
      return readReportRequest(scope);
    case 'requested':
      await claimReport(scope);
      return { kind: 'claimed' };
    case 'invalid':
      await releaseRequest(scope);
      // put off, the job's next run reads the ticket again and writes this note then
      await writeInvalidThreatNote(scope, state.problem, state.threat);
      return { kind: 'written' };
    case 'claimed':
      return sendReport(scope, state.request.report);
    case 'answered':
      await recordAnswer(scope, state.answer, state.request.comment);
      return { kind: 'recorded' };
    case 'reported':
      return saveReportLink(scope, state.reportRef, state.dashboardUrl, state.atReport);
    case 'linked':
      if (!state.link) return { kind: 'link_found', link: await savedLinkOf(scope) };
      await writeLinkedTicket(scope, state.link, state.atReport?.ticket, state.current);
      return { kind: 'written' };
    case 'unlinked':
      if (state.reconcile) {
        const { reason, why } = state.reconcile;
        await recordUnlinked(scope, state.state, reason, why);
        return { kind: 'recorded' };
      }
      await writeUnlinkedNote(scope, state.state, state.reason);
      return { kind: 'written' };
    case 'refused':
      if (!state.recorded) {
        // the answer is recorded before the ticket is written: a write put off writes the note
        // on the next run and never reports again
        await recordRefused(scope, state.state, state.failure);
        await releaseRequest(scope);
        return { kind: 'recorded' };
      }
      await writeRefusedNote(scope, state.state, state.failure);
      return { kind: 'written' };
    case 'dropped':
      await dropClaim(scope);
      return { kind: 'recorded' };
  }
}

async function lookUpEarlierRun(scope: ReportScope): Promise<FlowEvent> {
  const attempt = await findAttempt(scope);
  if (attempt) return { kind: 'found', stored: stateOf(attempt) };
  const link = await linkOfTicket(scope);
  if (link) return { kind: 'already_linked', incidentId: link.incidentId };
  return { kind: 'nothing_found' };
}

/** The report machine: the state after `state` once its step found `event`. Pure. */
export function transition(state: FlowState, event: FlowEvent): FlowState {
  const next = nextState(state, event);
  if (next === undefined)
    throw new Error(`report flow: no transition from ${state.kind} on ${event.kind}`);
  return next;
}

function nextState(state: FlowState, event: FlowEvent): FlowState | undefined {
  switch (state.kind) {
    case 'start':
      if (event.kind === 'found') return resumed(event.stored);
      if (event.kind === 'already_linked')
        return done({
          status: 'skipped',
          reason: `ticket already linked to incident ${event.incidentId}`,
        });
      if (event.kind === 'nothing_found') return { kind: 'unreported' };
      return undefined;
    case 'unreported':
      if (event.kind === 'read') return { kind: 'requested', request: event.request };
      if (event.kind === 'skip') return done(event.outcome);
      if (event.kind === 'invalid')
        return { kind: 'invalid', problem: event.problem, threat: event.threat };
      return undefined;
    case 'requested':
      return event.kind === 'claimed' ? { kind: 'claimed', request: state.request } : undefined;
    case 'invalid':
      return event.kind === 'written'
        ? done({
            status: 'failed_permanently',
            reason: `invalid threat: ${threatProblemText(state.problem)}`,
          })
        : undefined;
    case 'claimed':
      if (event.kind === 'answered')
        return { kind: 'answered', request: state.request, answer: event };
      return event.kind === 'failed' ? notReported(event.failure) : undefined;
    case 'answered':
      if (event.kind !== 'recorded') return undefined;
      return {
        kind: 'reported',
        reportRef: state.answer.reportRef,
        dashboardUrl: state.answer.dashboardUrl,
        atReport: state.request,
      };
    case 'reported':
      return fromReported(state, event);
    case 'linked':
      return fromLinked(state, event);
    case 'unlinked':
      if (event.kind === 'recorded' && state.reconcile) return { ...state, reconcile: undefined };
      if (event.kind === 'written' && !state.reconcile)
        return done({
          status: 'applied',
          detail: `not linked (${state.state}): in reconciliation`,
        });
      return undefined;
    case 'refused':
      if (event.kind === 'recorded' && !state.recorded) return { ...state, recorded: true };
      if (event.kind === 'written' && state.recorded)
        return done({
          status: 'failed_permanently',
          reason: `report ${state.state === 'unavailable' ? 'not accepted' : 'rejected'}: ${state.failure}`,
        });
      return undefined;
    case 'dropped':
      return event.kind === 'recorded' ? { kind: 'retry', error: state.error } : undefined;
    case 'done':
    case 'retry':
      return undefined;
  }
}

/** Where a run resumes the report an earlier run left at `stored`. */
function resumed(stored: ReportState): FlowState {
  switch (stored.kind) {
    case 'claimed':
      // a worker died between claiming and recording the answer: the threat may be reported
      return unlinked('failed', RECONCILE_OUTCOME_UNKNOWN, { kind: 'stopped_while_sending' });
    case 'reported':
      return {
        kind: 'reported',
        reportRef: stored.reportRef,
        dashboardUrl: stored.dashboardUrl,
        atReport: undefined,
      };
    case 'linked':
      if (stored.finished)
        return done({ status: 'skipped', reason: 'already reported and linked' });
      return { kind: 'linked', link: undefined, atReport: undefined, current: undefined };
    case 'unlinked':
      if (stored.finished)
        return done({ status: 'skipped', reason: `report already handled (${stored.state})` });
      return { kind: 'unlinked', state: stored.state, reason: stored.reason, reconcile: undefined };
    case 'refused':
      return { kind: 'refused', state: stored.state, failure: stored.failure, recorded: true };
  }
}

/** claimed -> unlinked (duplicate, lost answer), refused, or dropped (the service did not act). */
function notReported(failure: Extract<SendAnswer, { kind: 'failed' }>['failure']): FlowState {
  switch (failure.kind) {
    case 'duplicate':
      return unlinked('duplicate', RECONCILE_DUPLICATE, {
        kind: 'duplicate',
        status: failure.status,
      });
    case 'lost_answer':
      return unlinked('failed', RECONCILE_OUTCOME_UNKNOWN, {
        kind: 'lost_answer',
        failure: failure.failure,
      });
    case 'not_acted':
      // the service certainly did not act: the claim is released so the job's retry reports again
      if (!failure.lastAttempt) return { kind: 'dropped', error: failure.error };
      return { kind: 'refused', state: 'unavailable', failure: failure.failure, recorded: false };
    case 'refused':
      return { kind: 'refused', state: 'refused', failure: failure.failure, recorded: false };
  }
}

function fromReported(
  state: Extract<FlowState, { kind: 'reported' }>,
  event: FlowEvent,
): FlowState | undefined {
  switch (event.kind) {
    case 'link_saved':
      return { kind: 'linked', link: event.link, atReport: state.atReport, current: event.current };
    case 'link_claimed':
      // a worker is opening a ticket for this incident: once it finishes, the link either collides
      // with its ticket or is free; the queue's retry finds out, its last try gives up to a person
      if (!event.lastAttempt)
        return {
          kind: 'retry',
          error: new Error(
            `incident ${event.incidentId} is claimed by a worker opening its ticket; retry`,
          ),
        };
      return unlinked('failed', RECONCILE_LINK_CONFLICT, {
        kind: 'ticket_being_opened',
        incidentId: event.incidentId,
      });
    case 'link_collides':
      return unlinked('failed', RECONCILE_LINK_CONFLICT, {
        kind: 'link_collides',
        incidentId: event.incidentId,
        other: event.other,
      });
    default:
      return undefined;
  }
}

function fromLinked(
  state: Extract<FlowState, { kind: 'linked' }>,
  event: FlowEvent,
): FlowState | undefined {
  if (event.kind === 'link_found' && !state.link) return { ...state, link: event.link };
  if (event.kind === 'written' && state.link)
    return done({ status: 'applied', detail: `linked to incident ${state.link.incidentId}` });
  return undefined;
}

/** 409, 200 without id, an unknown outcome or a link conflict: never retried, reconciled by a person. */
function unlinked(state: UnlinkedState, reconcile: string, why: UnlinkedReason): FlowState {
  return { kind: 'unlinked', state, reason: why, reconcile: { reason: reconcile, why } };
}

function done(outcome: SyncOutcome): FlowState {
  return { kind: 'done', outcome };
}

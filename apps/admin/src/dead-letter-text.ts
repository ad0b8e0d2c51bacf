// A failed sync in the admin's words, from the connector's codes: what failed, why, and what
// Retry does. A code this page does not know yet (a newer connector) reads as a generic sentence.
import {
  FAILED_WORKS,
  type FailureDescription,
  type TFailureProblem,
} from '@incident-desk/admin-contract';
import type { Messages } from './i18n/en';

type Texts = Messages['failedSync'];

export interface FailureText {
  what: string;
  problem: string;
  retry: string;
}

function httpWords(status: number, t: Texts): string {
  return t.status[status] ?? (status >= 500 ? t.serverError : t.refused);
}

function problemText(problem: TFailureProblem, t: Texts): string {
  const party = 'party' in problem ? (t.party[problem.party] ?? t.party.other_side) : '';
  switch (problem.code) {
    case 'http_status':
      return t.httpStatus(party, httpWords(problem.status, t), problem.status);
    case 'timeout':
      return t.timeout(party);
    case 'unreachable':
      return t.unreachable(party);
    case 'stopped_with':
      return t.stoppedWith(problem.reason);
    case 'no_reason':
      return t.noReason;
    case 'outcome_unknown':
      return t.outcomeUnknown;
    default:
      return t.unknownProblem;
  }
}

export function failureText(failure: FailureDescription, t: Texts): FailureText {
  const work = (FAILED_WORKS as readonly string[]).includes(failure.work)
    ? failure.work
    : 'background_job';
  return {
    what: t.work[work],
    // an answer without a problem (it should not happen) still reads as a failure
    problem: failure.problem ? problemText(failure.problem, t) : t.unknownProblem,
    retry: t.retryDoes[work],
  };
}

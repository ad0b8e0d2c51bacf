// The report flow's POST (report-flow.ts): the report sent to the incident service, its answer or
// its failure as the flow reads them, and the answer recorded before anything else happens.
import {
  DuplicateIncidentError,
  type ReportResult,
  type TReportRequest,
} from '@incident-desk/incident-api';
import { dashboardLink } from '../../notes';
import { recordReportComment, recordReportHistory } from '../echo-ledger';
import { describeIncidentFailure, incidentFailureKind } from '../service-failure';
import { untilStored } from '../until-stored';
import { recordReported, type ReportScope } from './report-attempt';

/** Why the POST created no report the flow can link. */
type SendFailure =
  | { kind: 'duplicate'; status: number }
  /** The answer was lost: the service may have made the report. */
  | { kind: 'lost_answer'; failure: string }
  /** The service certainly did not act (429, 503); lastAttempt: the queue's last try. */
  | { kind: 'not_acted'; failure: string; error: unknown; lastAttempt: boolean }
  | { kind: 'refused'; failure: string };

export type SendAnswer =
  | {
      kind: 'answered';
      reportRef: string;
      dashboardUrl: string | null;
      message: string | undefined;
    }
  | { kind: 'failed'; failure: SendFailure };

/** claimed -> the service's answer, or why there is none. */
export async function sendReport(scope: ReportScope, report: TReportRequest): Promise<SendAnswer> {
  const { incidents } = scope.ctx.incidents();
  let result: ReportResult;
  try {
    result =
      scope.mode === 'takedown'
        ? await incidents.reportTakedown(report)
        : await incidents.reportMonitoring(report);
  } catch (error) {
    return { kind: 'failed', failure: sendFailureOf(error, scope.deps.lastAttempt ?? false) };
  }
  return {
    kind: 'answered',
    reportRef: result.id,
    dashboardUrl: dashboardLink(result.url),
    message: result.message,
  };
}

function sendFailureOf(error: unknown, lastAttempt: boolean): SendFailure {
  if (error instanceof DuplicateIncidentError) return { kind: 'duplicate', status: error.status };
  const kind = incidentFailureKind(error);
  const failure = describeIncidentFailure(error);
  if (kind === 'unknown') return { kind: 'lost_answer', failure };
  if (kind === 'not_acted') return { kind: 'not_acted', failure, error, lastAttempt };
  return { kind: 'refused', failure };
}

/**
 * answered -> reported: what the report produced is recorded before the link exists, so the
 * events this report causes already find it; then the attempt keeps the reference.
 */
export async function recordAnswer(
  scope: ReportScope,
  answer: { reportRef: string; dashboardUrl: string | null; message: string | undefined },
  comment: string,
): Promise<void> {
  const { deps, ctx } = scope;
  const { reportRef } = answer;
  await untilStored(() => recordReportHistory(deps.db, ctx.accountId, reportRef, [answer.message]));
  if (comment) {
    await untilStored(() => recordReportComment(deps.db, ctx.accountId, reportRef, comment));
  }
  await recordReported(scope, reportRef, answer.dashboardUrl);
}

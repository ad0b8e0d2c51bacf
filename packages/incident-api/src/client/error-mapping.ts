import { INVALID_PARAMETER_STATUSES } from '../assumptions';
import {
  APIError,
  ConflictError,
  DuplicateIncidentError,
  InsufficientCreditsError,
  InternalServerError,
  InvalidParameterError,
  NotAwaitingApprovalError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ResolutionsForbiddenError,
  TemporarilyUnavailableError,
  UnauthorizedError,
  type ApiErrorInit,
} from '../errors';
import type { Operation } from './operations';

type ErrorClass = new (init: ApiErrorInit & { operation: Operation }) => APIError;

const REPORTS: readonly Operation[] = ['incidents.reportTakedown', 'incidents.reportMonitoring'];

/** The spec's Errors table, in one place: the first matching row wins. */
const ROWS: ReadonlyArray<{
  status: number | ((status: number) => boolean);
  operations?: readonly Operation[];
  error: ErrorClass;
}> = [
  {
    status: (s) => (INVALID_PARAMETER_STATUSES as readonly number[]).includes(s),
    error: InvalidParameterError,
  },
  { status: 401, error: UnauthorizedError },
  { status: 403, operations: ['resolutions.list'], error: ResolutionsForbiddenError },
  { status: 403, operations: ['incidents.approveTakedown'], error: InsufficientCreditsError },
  { status: 403, error: PermissionDeniedError },
  { status: 404, error: NotFoundError },
  { status: 409, operations: REPORTS, error: DuplicateIncidentError },
  { status: 409, operations: ['incidents.approveTakedown'], error: NotAwaitingApprovalError },
  { status: 409, error: ConflictError },
  { status: 413, error: PayloadTooLargeError },
  { status: 429, error: RateLimitError },
  { status: (s) => s === 502 || s === 503, error: TemporarilyUnavailableError },
  { status: (s) => s >= 500, error: InternalServerError },
];

export function errorFromResponse(init: ApiErrorInit & { operation: Operation }): APIError {
  const row = ROWS.find(
    (r) =>
      (typeof r.status === 'number' ? r.status === init.status : r.status(init.status)) &&
      (!r.operations || r.operations.includes(init.operation)),
  );
  return new (row?.error ?? APIError)(init);
}

/** A report answered 200 without `id` is a duplicate (older processing path). */
export function duplicateFromSuccess(init: ApiErrorInit & { operation: Operation }) {
  return new DuplicateIncidentError({
    ...init,
    message: 'incident already exists (200 without id)',
  });
}

// How a sync handler ends. Throwing means "transient, try again" (pg-boss retries with backoff and
// dead-letters after the limit); a permanent failure is returned, recorded for the admin page, and
// the job completes so it does not hold back later jobs of the same ticket or incident.
export type SyncOutcome =
  | { status: 'applied'; detail?: string }
  | { status: 'skipped'; reason: string }
  | { status: 'failed_permanently'; reason: string };

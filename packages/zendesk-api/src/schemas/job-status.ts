import { z } from 'zod';
import { ZId } from './common';
import { ZTicketUpdateInput } from './ticket';

/** One ticket's change inside `update_many`: the same fields as a single update, plus its id. */
export const ZTicketBulkUpdateItem = ZTicketUpdateInput.extend({ id: ZId });
export type TTicketBulkUpdateItem = z.infer<typeof ZTicketBulkUpdateItem>;

/**
 * One item's result in a finished job. Zendesk reports success as `{id, action, success, status}`
 * and a refused item as `{id, error, details}` (or `errors`); the reader tolerates either.
 */
export const ZJobStatusResult = z.looseObject({
  id: z.number().optional(),
  index: z.number().optional(),
  action: z.string().optional(),
  success: z.boolean().optional(),
  status: z.string().optional(),
  error: z.string().optional(),
  errors: z.unknown().optional(),
  details: z.unknown().optional(),
});
export type TJobStatusResult = z.infer<typeof ZJobStatusResult>;

export const ZJobStatus = z.looseObject({
  id: z.string(),
  url: z.string().nullable().optional(),
  /** queued, working, completed, failed or killed. */
  status: z.string(),
  total: z.number().nullable().optional(),
  progress: z.number().nullable().optional(),
  message: z.string().nullable().optional(),
  results: z.array(ZJobStatusResult).nullable().optional(),
});
export type TJobStatus = z.infer<typeof ZJobStatus>;

export const ZJobStatusResponse = z.looseObject({ job_status: ZJobStatus });

/** Whether a job status is final (Zendesk keeps it readable for a day). */
export function isJobFinished(job: TJobStatus): boolean {
  return job.status === 'completed' || job.status === 'failed' || job.status === 'killed';
}

/** Whether one item of a finished job was applied. */
export function isJobResultSuccess(result: TJobStatusResult): boolean {
  if (result.success !== undefined) return result.success;
  return result.error === undefined && result.errors === undefined;
}

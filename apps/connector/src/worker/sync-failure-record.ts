// A job that failed for good becomes a SyncFailure: a dead letter admins see and may retry.
import type { Job, TDatabase } from '@incident-desk/db';
import type { Logger } from '../log';
import { describeJob } from './job-identity';
import type { SyncQueue } from './queues';

/** The job's dead letter (shown to admins with a retry); one per job, however often it ran. */
export async function recordSyncFailure(
  db: TDatabase,
  logger: Logger,
  queue: SyncQueue,
  job: Job<unknown>,
  reason: string,
): Promise<void> {
  const { accountId, ticketId, incidentId } = describeJob(job.data);
  if (!accountId) {
    logger.error(`${queue} job ${job.id} failed and names no account`, { reason });
    return;
  }
  // A job run again because its process died after recording the failure: still one letter.
  const recorded = await db.prisma.syncFailure.findFirst({
    where: { accountId, jobId: job.id },
    select: { id: true },
  });
  if (recorded) return;
  await db.prisma.syncFailure.create({
    data: {
      accountId,
      queue,
      jobId: job.id,
      ticketId,
      incidentId,
      reason,
      payload: job.data as object,
    },
  });
}

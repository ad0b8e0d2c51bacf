// The drain's requests to Zendesk: one ticket's update, or several tickets' update_many.
import type { TDatabase } from '@incident-desk/db';
import type { TJobStatus, TTicketBulkUpdateItem } from '@incident-desk/zendesk-api';
import type { AccountContext } from '../../accounts/account-context';
import { jobMaxWaitMs, jobPollMs, type DrainOptions } from './drain-options';
import { withoutRefusedStatus } from './refused-status';
import type { TicketBatch } from './ticket-batch';
import { handleError, markWritten } from './write-outcome';

export async function writeOne(
  ctx: AccountContext,
  db: TDatabase,
  batch: TicketBatch,
  options: DrainOptions,
): Promise<number> {
  try {
    await ctx.zendesk.tickets.update(Number(batch.ticketId), batch.input, { maxRetries: 0 });
  } catch (error) {
    const without = withoutRefusedStatus(ctx, batch, error);
    if (without) return writeOne(ctx, db, without, options);
    await handleError(ctx, db, [batch], error, options);
    return 0;
  }
  await markWritten(db, batch, options.now(), options);
  return 1;
}

/** Queues the pass's update_many; null when Zendesk refused it (handled: paused, retried or refused). */
export async function queueMany(
  ctx: AccountContext,
  db: TDatabase,
  batches: TicketBatch[],
  options: DrainOptions,
): Promise<TJobStatus | null> {
  const items: TTicketBulkUpdateItem[] = batches.map((batch) => ({
    id: Number(batch.ticketId),
    ...batch.input,
  }));
  try {
    const job = await ctx.zendesk.tickets.updateMany(items, { maxRetries: 0 });
    // Untouched by other passes until the job's status is next read (inline: until the wait is
    // over); from now on the job says what happened, so the lease names its holder.
    const leaseMs = options.waitForJobs
      ? jobMaxWaitMs(options) + (options.leaseMs ?? 45_000)
      : jobPollMs(options);
    await db.prisma.pendingTicketChange.updateMany({
      where: { id: { in: batches.flatMap((batch) => batch.rows.map((row) => row.id)) } },
      data: {
        writeJobId: job.id,
        readyAt: new Date(options.now().getTime() + leaseMs),
        writeHolder: options.writer?.instanceId ?? null,
      },
    });
    return job;
  } catch (error) {
    await handleError(ctx, db, batches, error, options);
    return null;
  }
}

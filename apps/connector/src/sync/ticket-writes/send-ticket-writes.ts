// The drain's requests to Zendesk: one ticket's update, or several tickets' update_many, both
// sent by the sender the direct writes use too (send-ticket-update.ts: echo, 429 pause).
import type { TDatabase } from '@incident-desk/db';
import type { TJobStatus } from '@incident-desk/zendesk-api';
import type { AccountContext } from '../../accounts';
import { jobMaxWaitMs, jobPollMs, rateLimitDefaultMs, type DrainOptions } from './drain-options';
import { withoutRefusedStatus } from './refused-status';
import { queueTicketUpdates, sendTicketUpdate, type SendOptions } from './send-ticket-update';
import type { TicketBatch } from './ticket-batch';
import { handleError, markWritten } from './write-outcome';

/** How the drain sends: never retried by the client, a 429 without Retry-After waits its default. */
function drainSendOptions(options: DrainOptions, echoRecorded = false): SendOptions {
  return {
    now: options.now,
    defaultDelayMs: rateLimitDefaultMs(options),
    echoRecorded,
    retry: { maxRetries: 0 },
  };
}

export async function writeOne(
  ctx: AccountContext,
  db: TDatabase,
  batch: TicketBatch,
  options: DrainOptions,
  /** A re-send of the batch's update (without a refused Status, or alone after update_many). */
  echoRecorded = false,
): Promise<number> {
  try {
    await sendTicketUpdate(ctx, db, batch, drainSendOptions(options, echoRecorded));
  } catch (error) {
    const without = withoutRefusedStatus(ctx, batch, error);
    if (without) return writeOne(ctx, db, without, options, true);
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
  try {
    const job = await queueTicketUpdates(ctx, db, batches, drainSendOptions(options));
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

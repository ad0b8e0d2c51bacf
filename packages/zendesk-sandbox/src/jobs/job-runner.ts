import type { AccountRecord, JobRecord, JobResultRecord, UserRecord } from '../state/model';
import { randomHex, SandboxError, type SandboxState } from '../state/sandbox-state';
import type { TTicketInput } from '../state/ticket-input';
import type { TicketService } from '../state/ticket-service';

export interface JobTiming {
  /** How long a job stays queued before a worker takes it. */
  startDelayMs: number;
  /** How long each ticket of a job takes once it runs. */
  itemDelayMs: number;
}

/** Zendesk runs a bulk update in a background worker: seconds, not milliseconds, for a full batch. */
export const DEFAULT_JOB_TIMING: JobTiming = { startDelayMs: 500, itemDelayMs: 20 };

/** "You can access the job status data for one day after a particular job is created." */
const JOB_RETENTION_MS = 86_400_000;

export interface TicketUpdateItem {
  id: number;
  input: TTicketInput;
}

/**
 * Applies each ticket's update of a job under the per-ticket update limit (`apply` runs unless the
 * limit refuses it); a SandboxError it throws fails that ticket only.
 */
export type JobItemGate = (
  account: AccountRecord,
  user: UserRecord,
  ticketId: number,
  apply: () => unknown,
) => unknown;

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/** One line per failed ticket: the details' descriptions, else the error's description. */
function describe(error: SandboxError): string {
  const details = error.body.details;
  if (details && typeof details === 'object') {
    const lines = Object.values(details as Record<string, { description?: string }[]>)
      .flat()
      .map((d) => d.description)
      .filter((d): d is string => typeof d === 'string');
    if (lines.length > 0) return lines.join(' ');
  }
  return error.message;
}

/** Zendesk's job message: "Completed at 2020-04-29 13:26:40 +0000". */
function completedAt(ms: number): string {
  return `Completed at ${new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, ' +0000')}`;
}

/**
 * Background jobs (`update_many`): queued, then working ticket by ticket through the ticket service
 * (so triggers and webhooks run as for a single update), then completed with one result per ticket.
 * A ticket that cannot be updated fails in the results; only an unexpected error fails the job.
 */
export class JobRunner {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly state: SandboxState,
    private readonly tickets: TicketService,
    readonly timing: JobTiming,
    private readonly gate: JobItemGate,
  ) {}

  /** Jobs queued or running on the account: what Zendesk's job limit counts. */
  activeJobs(account: AccountRecord): JobRecord[] {
    return [...account.jobs.values()].filter(
      (j) => j.status === 'queued' || j.status === 'working',
    );
  }

  /** Milliseconds until the first active job should finish (a Retry-After for the job limit). */
  untilASlotFrees(account: AccountRecord): number {
    const estimates = this.activeJobs(account).map((job) => {
      const left = job.total - (job.progress ?? 0);
      const wait =
        job.status === 'queued'
          ? this.timing.startDelayMs - (this.state.now() - job.created_at)
          : 0;
      return Math.max(0, wait) + left * this.timing.itemDelayMs;
    });
    return estimates.length === 0 ? 0 : Math.min(...estimates);
  }

  enqueueTicketUpdates(
    account: AccountRecord,
    user: UserRecord,
    items: TicketUpdateItem[],
  ): JobRecord {
    this.forgetExpired(account);
    const job: JobRecord = {
      id: randomHex(16),
      job_type: 'bulk_update',
      status: 'queued',
      total: items.length,
      progress: null,
      message: null,
      results: null,
      created_at: this.state.now(),
    };
    account.jobs.set(job.id, job);
    const run = this.run(account, user, job, items).finally(() => this.running.delete(run));
    this.running.add(run);
    return job;
  }

  find(account: AccountRecord, id: string): JobRecord | undefined {
    this.forgetExpired(account);
    return account.jobs.get(id);
  }

  /** Resolves once every job started so far has finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private forgetExpired(account: AccountRecord): void {
    const oldest = this.state.now() - JOB_RETENTION_MS;
    for (const [id, job] of account.jobs) if (job.created_at < oldest) account.jobs.delete(id);
  }

  private async run(
    account: AccountRecord,
    user: UserRecord,
    job: JobRecord,
    items: TicketUpdateItem[],
  ): Promise<void> {
    await sleep(this.timing.startDelayMs);
    job.status = 'working';
    job.progress = 0;
    this.state.markChanged();
    const results: JobResultRecord[] = [];
    try {
      for (const [index, item] of items.entries()) {
        await sleep(this.timing.itemDelayMs);
        results.push(this.updateOne(account, user, item, index));
        job.progress = index + 1;
      }
      job.status = 'completed';
      job.message = completedAt(this.state.now());
      job.results = results;
    } catch (error) {
      job.status = 'failed';
      job.message = error instanceof Error ? error.message : String(error);
      job.results = results;
    }
    this.state.markChanged();
  }

  private updateOne(
    account: AccountRecord,
    user: UserRecord,
    item: TicketUpdateItem,
    index: number,
  ): JobResultRecord {
    const failed = (error: SandboxError): JobResultRecord => ({
      id: item.id,
      index,
      action: 'update',
      success: false,
      status: 'Failed',
      error: String(error.body.error),
      details: describe(error),
    });
    try {
      this.gate(account, user, item.id, () =>
        this.tickets.update(account, item.id, item.input, user, 'api'),
      );
      return { id: item.id, action: 'update', success: true, status: 'Updated' };
    } catch (error) {
      if (error instanceof SandboxError) return failed(error);
      throw error;
    }
  }
}

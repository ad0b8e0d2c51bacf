import { encodePath } from '../core/encode-path';
import { ZendeskError } from '../core/errors';
import type { HttpTransport } from '../core/http-transport';
import type { ZendeskRequestOptions } from '../core/options';
import { isJobFinished, type TJobStatus, ZJobStatusResponse } from '../schemas/job-status';

export interface JobStatusWaitOptions extends ZendeskRequestOptions {
  /** Between two reads of an unfinished job. Default 500 ms. */
  pollIntervalMs?: number | undefined;
  /** Gives up (ZendeskError) when the job is not finished after this long. Default 120 000 ms. */
  maxWaitMs?: number | undefined;
  /** Injectable for tests. Default setTimeout. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
}

export class JobStatuses {
  constructor(private readonly transport: HttpTransport) {}

  /** GET /api/v2/job_statuses/{id}.json */
  async show(jobId: string, options?: ZendeskRequestOptions): Promise<TJobStatus> {
    const response = await this.transport.json(
      { method: 'GET', path: encodePath`/api/v2/job_statuses/${jobId}.json`, options },
      ZJobStatusResponse,
    );
    return response.job_status;
  }

  /** Reads the job until it is completed, failed or killed, and returns that final status. */
  async waitFor(job: TJobStatus | string, options: JobStatusWaitOptions = {}): Promise<TJobStatus> {
    const { pollIntervalMs = 500, maxWaitMs = 120_000, sleep, ...request } = options;
    const wait = sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    const jobId = typeof job === 'string' ? job : job.id;
    let current = typeof job === 'string' ? await this.show(jobId, request) : job;
    const deadline = Date.now() + maxWaitMs;
    while (!isJobFinished(current)) {
      if (Date.now() >= deadline) {
        throw new ZendeskError(`job ${jobId} is still ${current.status} after ${maxWaitMs} ms`);
      }
      await wait(pollIntervalMs);
      current = await this.show(jobId, request);
    }
    return current;
  }
}

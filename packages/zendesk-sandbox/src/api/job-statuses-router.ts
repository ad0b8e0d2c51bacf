import { Router } from 'express';
import type { AccountRecord, JobRecord } from '../state/model';
import { recordNotFound } from '../state/sandbox-state';
import type { SandboxUrls } from '../state/urls';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';

export function serializeJobStatus(urls: SandboxUrls, account: AccountRecord, job: JobRecord) {
  return {
    id: job.id,
    job_type: job.job_type,
    url: urls.api(account.subdomain, `job_statuses/${job.id}.json`),
    total: job.total,
    progress: job.progress,
    status: job.status,
    message: job.message,
    results: job.results,
  };
}

/** `GET /api/v2/job_statuses[/{id} | /show_many?ids=]`: background jobs, readable for a day. */
export function jobStatusesRouter(ctx: SandboxContext): Router {
  const router = Router();
  const { urls, jobs } = ctx;

  router.get('/api/v2/job_statuses{.json}', requireScope('tickets', 'read'), (_req, res) => {
    const { account } = caller(res);
    // Newest first; jobs created in the same millisecond stay newest first by insertion.
    const all = [...account.jobs.keys()]
      .reverse()
      .map((id) => jobs.find(account, id))
      .filter((job) => job !== undefined)
      .sort((a, b) => b.created_at - a.created_at)
      .slice(0, 100);
    res.json({
      job_statuses: all.map((job) => serializeJobStatus(urls, account, job)),
      next_page: null,
      previous_page: null,
      count: all.length,
    });
  });

  router.get(
    '/api/v2/job_statuses/show_many{.json}',
    requireScope('tickets', 'read'),
    (req, res) => {
      const { account } = caller(res);
      const ids = String(req.query.ids ?? '')
        .split(',')
        .map((id) => id.trim());
      const found = ids.map((id) => jobs.find(account, id)).filter((job) => job !== undefined);
      res.json({ job_statuses: found.map((job) => serializeJobStatus(urls, account, job)) });
    },
  );

  router.get('/api/v2/job_statuses/:id{.json}', requireScope('tickets', 'read'), (req, res) => {
    const { account } = caller(res);
    const job = jobs.find(account, String(req.params.id));
    if (!job) throw recordNotFound();
    res.json({ job_status: serializeJobStatus(urls, account, job) });
  });

  return router;
}

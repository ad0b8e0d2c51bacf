import { Router, type Request } from 'express';
import { z } from 'zod';
import type { TicketUpdateItem } from '../jobs/job-runner';
import { SandboxError } from '../state/sandbox-state';
import { ZTicketInput } from '../state/ticket-input';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';
import { badRequest } from './errors';
import { serializeJobStatus } from './job-statuses-router';

/** "Accepts an array of up to 100 ticket objects, or a comma-separated list of up to 100 ticket ids." */
const MAX_TICKETS_PER_BULK_UPDATE = 100;

const ZTicketId = z.coerce.number().int().positive();

function tooMany(count: number): SandboxError {
  return new SandboxError(400, {
    error: 'TooManyValues',
    description: `${count} tickets given; update_many accepts at most ${MAX_TICKETS_PER_BULK_UPDATE} per request`,
  });
}

/** `?ids=1,2,3` with one `{ticket}` change for all, or a `{tickets: [{id, ...}]}` array of changes. */
function itemsOf(req: Request): TicketUpdateItem[] {
  const body: unknown = req.body;
  const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  if (req.query.ids !== undefined) {
    const raw = String(req.query.ids)
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    if (raw.length > MAX_TICKETS_PER_BULK_UPDATE) throw tooMany(raw.length);
    const ids = raw.map((id) => ZTicketId.safeParse(id));
    if (raw.length === 0 || ids.some((id) => !id.success))
      throw badRequest('ids must be a comma-separated list of ticket ids');
    const change = ZTicketInput.safeParse(record.ticket);
    if (record.ticket === undefined || !change.success)
      throw badRequest('Expected a JSON body {"ticket": {...}} with ids=');
    return ids.map((id) => ({ id: id.data as number, input: change.data }));
  }
  if (!Array.isArray(record.tickets))
    throw badRequest(
      'Expected a JSON body {"tickets": [{"id": ..., ...}]} or ids= with {"ticket": {...}}',
    );
  if (record.tickets.length === 0) throw badRequest('tickets must not be empty');
  if (record.tickets.length > MAX_TICKETS_PER_BULK_UPDATE) throw tooMany(record.tickets.length);
  return record.tickets.map((item: unknown, index) => {
    const fields =
      item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : undefined;
    const id = ZTicketId.safeParse(fields?.id);
    if (!fields || !id.success)
      throw badRequest(`tickets[${index}] needs the id of the ticket to update`);
    const change = ZTicketInput.safeParse(fields);
    if (!change.success) throw badRequest(`tickets[${index}] is not a valid ticket change`);
    return { id: id.data, input: change.data };
  });
}

/**
 * `PUT /api/v2/tickets/update_many.json`: validated at once, then run as a background job that
 * `GET /api/v2/job_statuses/{id}` follows. Refused with 429 while the account has its limit of
 * queued or running jobs.
 */
export function updateManyRouter(ctx: SandboxContext): Router {
  const router = Router();
  const { urls, jobs, limits } = ctx;

  router.put('/api/v2/tickets/update_many{.json}', requireScope('tickets', 'write'), (req, res) => {
    const { account, user } = caller(res);
    const items = itemsOf(req);
    const { maxActiveJobs } = account.rateLimit;
    if (jobs.activeJobs(account).length >= maxActiveJobs) {
      limits.refused(account.subdomain, 'jobs');
      const retryAfter = Math.max(1, Math.ceil(jobs.untilASlotFrees(account) / 1000));
      throw new SandboxError(
        429,
        {
          error: 'TooManyJobs',
          description: `Number of allowed queued or running jobs (${maxActiveJobs}) exceeded`,
        },
        { 'Retry-After': String(retryAfter) },
      );
    }
    const job = jobs.enqueueTicketUpdates(account, user, items);
    res.json({ job_status: serializeJobStatus(urls, account, job) });
  });

  return router;
}

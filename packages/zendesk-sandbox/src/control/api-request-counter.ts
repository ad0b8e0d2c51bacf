import express, { type RequestHandler, type Router } from 'express';
import { subdomainOf } from '../api/context';

/** `PUT /api/v2/tickets/12.json` and `PUT /api/v2/tickets/13` count as one endpoint; so do job status ids. */
function endpointOf(method: string, path: string): string {
  const route = path
    .replace(/\.json$/, '')
    .replace(/\/\d+(?=\/|$)/g, '/{id}')
    .replace(/\/job_statuses\/[0-9a-f]{32}(?=\/|$)/g, '/job_statuses/{id}');
  return `${method} ${route}`;
}

/**
 * Counts every Support API request (`/api/v2/*`) per account, as it arrives: answered, faulted or
 * rate limited alike, because each is a call the client made. Tests and benchmarks read it to
 * measure how many calls an integration spends per unit of work.
 */
export class ApiRequestCounter {
  private readonly counts = new Map<string, Map<string, number>>();

  middleware(): RequestHandler {
    return (req, res, next) => {
      const subdomain = subdomainOf(res);
      if (subdomain !== undefined && req.path.startsWith('/api/v2/')) {
        const account = this.counts.get(subdomain) ?? new Map<string, number>();
        const endpoint = endpointOf(req.method, req.path);
        account.set(endpoint, (account.get(endpoint) ?? 0) + 1);
        this.counts.set(subdomain, account);
      }
      next();
    };
  }

  of(subdomain: string): { total: number; by_endpoint: Record<string, number> } {
    const account = this.counts.get(subdomain) ?? new Map<string, number>();
    let total = 0;
    for (const count of account.values()) total += count;
    return {
      total,
      by_endpoint: Object.fromEntries([...account].sort(([a], [b]) => (a < b ? -1 : 1))),
    };
  }

  reset(subdomain: string): void {
    this.counts.delete(subdomain);
  }

  /** `GET /_sandbox/accounts/{sub}/api-requests` reads the count, `DELETE` starts it again. */
  router(): Router {
    const router = express.Router();
    router.get('/accounts/:subdomain/api-requests', (req, res) => {
      res.json(this.of(req.params.subdomain));
    });
    router.delete('/accounts/:subdomain/api-requests', (req, res) => {
      this.reset(req.params.subdomain);
      res.status(204).end();
    });
    return router;
  }
}

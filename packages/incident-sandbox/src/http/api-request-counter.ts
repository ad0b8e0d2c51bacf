import { Router, type RequestHandler } from 'express';

/** Segments after `incident/` that name a route, not an incident. */
const INCIDENT_ROUTES = new Set(['tkd', 'monitor', 'resolutions', 'subject']);

/**
 * `GET /v1/incident/inc_1/snapshots` and `GET /v1/incident/inc_2/snapshots` count as one endpoint:
 * incident, document and webhook ids and a subject are folded.
 */
export function endpointOf(method: string, path: string): string {
  const segments = path.split('/');
  const folded = segments.map((segment, index) => {
    const before = segments[index - 1];
    if (index === 0 || segment === '') return segment;
    if (before === 'subject' && segments[index - 2] === 'incident') return '{subject}';
    if (before === 'incident' && !INCIDENT_ROUTES.has(segment)) return '{id}';
    if ((before === 'documents' || before === 'webhooks') && index === 3) return '{id}';
    return segment;
  });
  return `${method} ${folded.join('/')}`;
}

/**
 * Counts every service API request (`/v1/*`) as it arrives, answered, faulted or refused alike,
 * since each is a call the client made: tests and benchmarks read it to measure how many calls an
 * integration spends per unit of work. The control API (`/_sandbox`) is not counted.
 */
export class ApiRequestCounter {
  private readonly counts = new Map<string, number>();

  middleware(): RequestHandler {
    return (req, _res, next) => {
      const endpoint = endpointOf(req.method, req.baseUrl + req.path);
      this.counts.set(endpoint, (this.counts.get(endpoint) ?? 0) + 1);
      next();
    };
  }

  read(): { total: number; by_endpoint: Record<string, number> } {
    let total = 0;
    for (const count of this.counts.values()) total += count;
    return {
      total,
      by_endpoint: Object.fromEntries([...this.counts].sort(([a], [b]) => (a < b ? -1 : 1))),
    };
  }

  reset(): void {
    this.counts.clear();
  }

  /** `GET /_sandbox/api-requests` reads the count, `DELETE` starts it again. */
  router(): Router {
    const router = Router();
    router.get('/api-requests', (_req, res) => {
      res.json(this.read());
    });
    router.delete('/api-requests', (_req, res) => {
      this.reset();
      res.status(204).end();
    });
    return router;
  }
}

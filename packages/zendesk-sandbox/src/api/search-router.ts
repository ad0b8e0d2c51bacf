import { Router } from 'express';
import { searchTickets } from '../state/search-index';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';
import { badRequest } from './errors';
import { paginate } from './pagination';
import { serializeTicket } from './serialize';

export function searchRouter(ctx: SandboxContext): Router {
  const router = Router();
  const { state, urls } = ctx;

  // Tickets only: other result types (users, organizations) answer with no results.
  router.get('/api/v2/search{.json}', requireScope('tickets', 'read'), (req, res) => {
    const { account } = caller(res);
    const query = typeof req.query.query === 'string' ? req.query.query : '';
    if (query.trim() === '') throw badRequest('Query: cannot be blank');
    if (req.query['page[size]'] !== undefined)
      throw badRequest('Search does not support cursor pagination; use the export endpoint');
    const tickets = searchTickets(account, query, state.now()) ?? [];
    const page = paginate(req, tickets, urls.origin + req.originalUrl);
    res.json({
      results: page.items.map((t) => ({
        ...serializeTicket(urls, account, t),
        result_type: 'ticket',
      })),
      facets: null,
      ...page.envelope,
    });
  });

  // Show Results Count: the number of results the same query would list.
  router.get('/api/v2/search/count{.json}', requireScope('tickets', 'read'), (req, res) => {
    const { account } = caller(res);
    const query = typeof req.query.query === 'string' ? req.query.query : '';
    if (query.trim() === '') throw badRequest('Query: cannot be blank');
    res.json({ count: (searchTickets(account, query, state.now()) ?? []).length });
  });

  return router;
}

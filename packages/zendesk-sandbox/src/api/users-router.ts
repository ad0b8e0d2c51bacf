import { Router } from 'express';
import { recordNotFound } from '../state/sandbox-state';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';
import { badRequest } from './errors';
import { paginate } from './pagination';
import { searchUsers } from '../state/user-search';
import { serializeUser } from './serialize';

/** Longer queries are refused before they are parsed. */
const MAX_QUERY_LENGTH = 1_000;

export function usersRouter(ctx: SandboxContext): Router {
  const router = Router();
  const { urls } = ctx;

  router.get('/api/v2/users/me{.json}', requireScope('users', 'read', 'any'), (_req, res) => {
    const { account, user } = caller(res);
    res.json({ user: serializeUser(urls, account, user) });
  });

  router.get('/api/v2/users/show_many{.json}', requireScope('users', 'read'), (req, res) => {
    const { account } = caller(res);
    const ids = String(req.query.ids ?? '')
      .split(',')
      .map(Number);
    const users = ids.map((id) => account.users.get(id)).filter((u) => u !== undefined);
    res.json({
      users: users.map((u) => serializeUser(urls, account, u)),
      next_page: null,
      previous_page: null,
      count: users.length,
    });
  });

  // Search Users: `query` (name, email, `role:`), or `external_id` (no user has one here).
  router.get('/api/v2/users/search{.json}', requireScope('users', 'read'), (req, res) => {
    const { account } = caller(res);
    const query = typeof req.query.query === 'string' ? req.query.query.trim() : '';
    const byExternalId = typeof req.query.external_id === 'string';
    if (query === '' && !byExternalId) throw badRequest('Search Users needs query or external_id');
    // the URL's own limit bounds it in Zendesk; here the parse below stays short whatever is sent
    if (query.length > MAX_QUERY_LENGTH) throw badRequest('Search Users query is too long');
    const users = byExternalId ? [] : searchUsers(account.users.values(), query);
    const page = paginate(req, users, urls.origin + req.originalUrl);
    res.json({ users: page.items.map((u) => serializeUser(urls, account, u)), ...page.envelope });
  });

  router.get('/api/v2/users{.json}', requireScope('users', 'read'), (req, res) => {
    const { account } = caller(res);
    const role = typeof req.query.role === 'string' ? req.query.role : undefined;
    const users = [...account.users.values()].filter((u) => role === undefined || u.role === role);
    const page = paginate(req, users, urls.origin + req.originalUrl);
    res.json({ users: page.items.map((u) => serializeUser(urls, account, u)), ...page.envelope });
  });

  router.get(
    '/api/v2/users/:id/group_memberships{.json}',
    requireScope('users', 'read'),
    (req, res) => {
      const { account } = caller(res);
      const user = account.users.get(Number(req.params.id));
      if (!user) throw recordNotFound();
      const memberships = user.group_ids.map((groupId) => ({
        id: user.id * 1_000 + groupId,
        user_id: user.id,
        group_id: groupId,
        default: groupId === user.group_ids[0],
      }));
      res.json({
        group_memberships: memberships,
        next_page: null,
        previous_page: null,
        count: memberships.length,
      });
    },
  );

  router.get('/api/v2/users/:id{.json}', requireScope('users', 'read'), (req, res) => {
    const { account } = caller(res);
    const user = account.users.get(Number(req.params.id));
    if (!user) throw recordNotFound();
    res.json({ user: serializeUser(urls, account, user) });
  });

  return router;
}

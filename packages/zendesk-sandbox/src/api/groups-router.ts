import { Router } from 'express';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';
import { paginate } from './pagination';

/** GET /api/v2/groups: the account's groups, read with users:read like group memberships. */
export function groupsRouter(ctx: SandboxContext): Router {
  const router = Router();
  const { urls } = ctx;

  router.get('/api/v2/groups{.json}', requireScope('users', 'read'), (req, res) => {
    const { account } = caller(res);
    const groups = [...account.groups.values()].sort((a, b) => a.id - b.id);
    const page = paginate(req, groups, urls.origin + req.originalUrl);
    res.json({
      groups: page.items.map((group) => ({ id: group.id, name: group.name, deleted: false })),
      ...page.envelope,
    });
  });

  return router;
}

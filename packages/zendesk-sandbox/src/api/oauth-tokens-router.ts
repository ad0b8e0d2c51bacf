import { Router } from 'express';
import type { TokenRecord } from '../state/model';
import { recordNotFound } from '../state/sandbox-state';
import type { TokenService } from '../oauth/token-service';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';
import { paginate } from './pagination';

function serializeToken(ctx: SandboxContext, token: TokenRecord) {
  return {
    url: ctx.urls.api(token.subdomain, `oauth/tokens/${token.id}.json`),
    id: token.id,
    user_id: token.user_id,
    client_id: ctx.state.clients.get(token.client_identifier)?.id ?? null,
    token: token.access_token.slice(0, 10),
    refresh_token: token.refresh_token === null ? null : token.refresh_token.slice(0, 10),
    created_at: token.created_at,
    expires_at: token.expires_at === null ? null : new Date(token.expires_at).toISOString(),
    used_at: null,
    scopes: token.scopes,
  };
}

/** Token introspection and revocation through the API, as Zendesk offers them. */
export function oauthTokensRouter(ctx: SandboxContext, tokens: TokenService): Router {
  const router = Router();

  router.get('/api/v2/oauth/tokens/current{.json}', (_req, res) => {
    res.json({ token: serializeToken(ctx, caller(res).token) });
  });

  // The caller's live tokens; an admin sees every token of the account with `all=true`.
  const visible = (res: Parameters<typeof caller>[0], all: boolean): TokenRecord[] => {
    const { account, user } = caller(res);
    const now = ctx.state.now();
    return ctx.state.tokens.filter(
      (t) =>
        t.subdomain === account.subdomain &&
        !t.revoked &&
        (t.expires_at === null || t.expires_at > now) &&
        ((all && user.role === 'admin') || t.user_id === user.id),
    );
  };

  router.get('/api/v2/oauth/tokens{.json}', requireScope(null, 'read'), (req, res) => {
    const page = paginate(
      req,
      visible(res, req.query.all === 'true'),
      ctx.urls.origin + req.originalUrl,
    );
    res.json({ tokens: page.items.map((t) => serializeToken(ctx, t)), ...page.envelope });
  });

  router.get('/api/v2/oauth/tokens/:id{.json}', requireScope(null, 'read'), (req, res) => {
    const token = visible(res, true).find((t) => t.id === Number(req.params.id));
    if (!token) throw recordNotFound();
    res.json({ token: serializeToken(ctx, token) });
  });

  router.delete('/api/v2/oauth/tokens/current{.json}', (_req, res) => {
    tokens.revoke(caller(res).token);
    res.status(204).end();
  });

  router.delete(
    '/api/v2/oauth/tokens/:id{.json}',
    requireScope(null, 'write', 'admin'),
    (req, res) => {
      const { account } = caller(res);
      const token = ctx.state.tokens.find(
        (t) => t.id === Number(req.params.id) && t.subdomain === account.subdomain && !t.revoked,
      );
      if (!token) throw recordNotFound();
      tokens.revoke(token);
      res.status(204).end();
    },
  );

  return router;
}

import { Router } from 'express';
import type { TokenRecord } from '../state/model';
import { recordNotFound } from '../state/sandbox-state';
import type { TokenService } from '../oauth/token-service';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';

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

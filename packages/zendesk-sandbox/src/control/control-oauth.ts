// The control API's OAuth: clients registered, tokens issued for a user, expired and revoked.
import type { Request, Router } from 'express';
import { z } from 'zod';
import type { SandboxContext } from '../api/context';
import type { TokenService } from '../oauth/token-service';
import { isKnownScope, parseScopes } from '../oauth/scopes';
import { ACCESS_TOKEN_BOUNDS, REFRESH_TOKEN_BOUNDS } from '../oauth/token-lifetimes';
import { recordInvalid, recordNotFound } from '../state/sandbox-state';
import { accountOf, userOf } from './control-lookups';

const ZClientInput = z.object({
  identifier: z.string().min(1),
  secret: z.string().min(1).optional(),
  name: z.string().min(1).default('OAuth client'),
  redirect_uris: z.array(z.string().url()).default([]),
  kind: z.enum(['confidential', 'public']).default('confidential'),
  /** The account of a local client; omit for a global client. */
  subdomain: z.string().optional(),
  /** The user who created a local client (client_credentials tokens act as them). */
  owner_user_id: z.number().int().optional(),
});
const ZTokenInput = z.object({
  user_id: z.number().int(),
  scopes: z.union([z.string(), z.array(z.string())]).default('read write'),
  client_id: z.string().optional(),
  expires_in: z
    .number()
    .int()
    .min(ACCESS_TOKEN_BOUNDS.min)
    .max(ACCESS_TOKEN_BOUNDS.max)
    .default(ACCESS_TOKEN_BOUNDS.default),
});
const ZTokenRef = z.object({
  token: z.string().min(1),
  which: z.enum(['access', 'refresh', 'both']).default('both'),
});

export function oauthControlRoutes(
  router: Router,
  ctx: SandboxContext,
  tokens: TokenService,
  sandboxClientId: string,
): void {
  const { state } = ctx;
  const account = (req: Request) => accountOf(state, req);

  router.post('/oauth/clients', (req, res) => {
    const input = ZClientInput.parse(req.body);
    const client = state.registerClient({
      identifier: input.identifier,
      ...(input.secret !== undefined ? { secret: input.secret } : {}),
      name: input.name,
      redirect_uri: input.redirect_uris,
      kind: input.kind,
      subdomain: input.subdomain ?? null,
      owner_user_id: input.owner_user_id ?? null,
    });
    res.status(201).json({ client: { ...client, global: client.subdomain === null } });
  });

  router.post('/accounts/:subdomain/tokens', (req, res) => {
    const acc = account(req);
    const input = ZTokenInput.parse(req.body);
    const scopes = Array.isArray(input.scopes) ? input.scopes : parseScopes(input.scopes);
    if (!scopes.every(isKnownScope))
      throw recordInvalid({
        scopes: [{ description: 'Scopes: unknown scope', error: 'InvalidValue' }],
      });
    const client = state.clientFor(acc.subdomain, input.client_id ?? sandboxClientId);
    if (!client)
      throw recordInvalid({
        client_id: [{ description: 'Client: not usable on this account', error: 'InvalidValue' }],
      });
    const token = tokens.issue(acc.subdomain, client, userOf(acc, input.user_id), scopes, {
      expiresIn: input.expires_in,
      refreshExpiresIn: REFRESH_TOKEN_BOUNDS.default,
      withRefresh: true,
    });
    res.status(201).json({
      access_token: token.access_token,
      refresh_token: token.refresh_token,
      token_type: 'bearer',
      scope: scopes.join(' '),
      expires_in: input.expires_in,
    });
  });

  router.post('/tokens/expire', (req, res) => {
    const input = ZTokenRef.parse(req.body);
    const token = tokens.findAny(input.token);
    if (!token) throw recordNotFound();
    tokens.expire(token, input.which);
    res.json({ expired: input.which });
  });

  router.post('/tokens/revoke', (req, res) => {
    const token = tokens.findAny(ZTokenRef.parse(req.body).token);
    if (!token) throw recordNotFound();
    tokens.revoke(token);
    res.json({ revoked: true });
  });

  // An admin revokes an OAuth client's access to the account (Admin Center, Apps and integrations,
  // OAuth clients): every token of that client on the account ends, access and refresh alike.
  router.post('/accounts/:subdomain/oauth-grants/revoke', (req, res) => {
    const acc = account(req);
    const { client_id: clientId } = z.object({ client_id: z.string().min(1) }).parse(req.body);
    let revoked = 0;
    for (const token of state.tokens) {
      if (token.subdomain !== acc.subdomain || token.client_identifier !== clientId) continue;
      if (token.revoked) continue;
      tokens.revoke(token);
      revoked += 1;
    }
    res.json({ revoked });
  });
}

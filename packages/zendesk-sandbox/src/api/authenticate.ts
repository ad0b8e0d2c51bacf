import type { RequestHandler } from 'express';
import { recordNotFound, SandboxError } from '../state/sandbox-state';
import type { TokenService } from '../oauth/token-service';
import type { SandboxState } from '../state/sandbox-state';
import { scopeAllows, type TAccess } from '../oauth/scopes';
import { caller, setLocals, subdomainOf } from './context';
import { forbidden, invalidToken, missingScope } from './errors';

/** Bearer OAuth tokens only (API tokens are being retired by Zendesk and are not imitated). */
export function authenticate(state: SandboxState, tokens: TokenService): RequestHandler {
  return (req, res, next) => {
    const subdomain = subdomainOf(res);
    const account = subdomain === undefined ? undefined : state.account(subdomain);
    if (!account) throw recordNotFound();
    const header = req.headers.authorization ?? '';
    const bearer = /^Bearer\s+(\S+)$/i.exec(header);
    if (!bearer?.[1]) {
      throw new SandboxError(401, { error: "Couldn't authenticate you" });
    }
    const token = tokens.findAccess(account.subdomain, bearer[1]);
    const user = token ? account.users.get(token.user_id) : undefined;
    if (!token || !user) throw invalidToken();
    setLocals(res, { account, user, token });
    next();
  };
}

/**
 * Scope check (403 naming the scope, as Zendesk does) plus the role the endpoint needs (403 with
 * Zendesk's "You do not have access to this page" wording). The scope named is the narrowest that
 * would do: the resource scope where the endpoint has one, else the global `read` / `write`.
 */
export function requireScope(
  resource: string | null,
  access: TAccess,
  role: 'any' | 'agent' | 'admin' = 'agent',
): RequestHandler {
  return (_req, res, next) => {
    const { token, user } = caller(res);
    if (!scopeAllows(token.scopes, resource, access))
      throw missingScope(resource === null ? access : `${resource}:${access}`);
    if (role === 'agent' && user.role === 'end-user') throw forbidden();
    if (role === 'admin' && user.role !== 'admin') throw forbidden();
    next();
  };
}

import { createHash } from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import type { AccountRecord, OAuthClientRecord } from '../state/model';
import { randomHex, type SandboxState } from '../state/sandbox-state';
import { subdomainOf } from '../api/context';
import { renderApprovalPage, renderErrorPage } from './approval-page';
import { isKnownScope, parseScopes } from './scopes';
import {
  ACCESS_TOKEN_BOUNDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  REFRESH_TOKEN_BOUNDS,
} from './token-lifetimes';
import type { TokenService } from './token-service';

class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
  ) {
    super(description);
  }
}

const INVALID_GRANT =
  'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.';
const INVALID_CLIENT =
  'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.';

const AUTHORIZE_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

function text(source: Record<string, unknown>, key: string): string | undefined {
  const value = source[key];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

function redirectWith(
  res: Response,
  redirectUri: string,
  params: Record<string, string | undefined>,
): void {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(key, value);
  res.redirect(302, url.toString());
}

function lifetime(
  value: string | undefined,
  bounds: { min: number; max: number; default: number },
  name: string,
): number {
  if (value === undefined || value === '') return bounds.default;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < bounds.min || seconds > bounds.max) {
    throw new OAuthError(
      400,
      'invalid_request',
      `${name} must be an integer between ${bounds.min} and ${bounds.max}`,
    );
  }
  return seconds;
}

function pkceMatches(
  challenge: string,
  method: string | null,
  verifier: string | undefined,
): boolean {
  if (verifier === undefined) return false;
  if (method === 'S256')
    return createHash('sha256').update(verifier).digest('base64url') === challenge;
  return verifier === challenge;
}

export function oauthRouter(state: SandboxState, tokens: TokenService): Router {
  const router = Router();
  const formParser = express.urlencoded({ extended: false });

  const accountOf = (res: Response): AccountRecord | undefined => {
    const subdomain = subdomainOf(res);
    return subdomain === undefined ? undefined : state.account(subdomain);
  };

  /** Problems that must not redirect (unknown client, unregistered redirect_uri) are shown as a page. */
  const checkClientAndRedirect = (
    account: AccountRecord,
    source: Record<string, unknown>,
    res: Response,
  ) => {
    const refuse = (reason: string) => {
      res.status(400).type('html').send(renderErrorPage('Invalid OAuth request', reason));
      return null;
    };
    const client = state.clientFor(account.subdomain, text(source, 'client_id') ?? '');
    if (!client) return refuse('invalid_client: unknown client for this account');
    const redirectUri = text(source, 'redirect_uri') ?? '';
    if (!client.redirect_uri.includes(redirectUri))
      return refuse('invalid_request: redirect_uri does not match the client');
    return { client, redirectUri };
  };

  const redirectableProblem = (
    source: Record<string, unknown>,
    client: OAuthClientRecord,
  ): [string, string] | null => {
    if (text(source, 'response_type') !== 'code')
      return ['unsupported_response_type', 'response_type must be code'];
    const scopes = parseScopes(text(source, 'scope'));
    if (scopes.length === 0 || !scopes.every(isKnownScope))
      return ['invalid_scope', 'The requested scope is invalid, unknown, or malformed.'];
    if (client.kind === 'public' && !text(source, 'code_challenge'))
      return ['invalid_request', 'code_challenge is required for public clients'];
    return null;
  };

  router.get('/oauth/authorizations/new', (req, res) => {
    const account = accountOf(res);
    if (!account) {
      res.status(404).type('html').send(renderErrorPage('Not found', 'No such account'));
      return;
    }
    const query = req.query as Record<string, unknown>;
    const checked = checkClientAndRedirect(account, query, res);
    if (!checked) return;
    const problem = redirectableProblem(query, checked.client);
    if (problem) {
      redirectWith(res, checked.redirectUri, {
        error: problem[0],
        error_description: problem[1],
        state: text(query, 'state'),
      });
      return;
    }
    const params: Record<string, string> = {};
    for (const key of AUTHORIZE_PARAMS) {
      const value = text(query, key);
      if (value !== undefined) params[key] = value;
    }
    const agents = [...account.users.values()].filter((u) => u.role !== 'end-user');
    const wanted = Number(text(query, 'user_id'));
    res.type('html').send(
      renderApprovalPage({
        subdomain: account.subdomain,
        client: checked.client,
        agents,
        selectedUserId: agents.some((a) => a.id === wanted) ? wanted : agents[0]?.id,
        params,
        scopes: parseScopes(params.scope),
      }),
    );
  });

  router.post('/oauth/authorizations', formParser, (req, res) => {
    const account = accountOf(res);
    if (!account) {
      res.status(404).type('html').send(renderErrorPage('Not found', 'No such account'));
      return;
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    const checked = checkClientAndRedirect(account, body, res);
    if (!checked) return;
    const stateParam = text(body, 'state');
    const problem = redirectableProblem(body, checked.client);
    if (problem) {
      redirectWith(res, checked.redirectUri, {
        error: problem[0],
        error_description: problem[1],
        state: stateParam,
      });
      return;
    }
    if (text(body, 'decision') !== 'allow') {
      redirectWith(res, checked.redirectUri, {
        error: 'access_denied',
        error_description: 'The end-user or authorization server denied the request.',
        state: stateParam,
      });
      return;
    }
    const user = account.users.get(Number(text(body, 'user_id')));
    if (!user || user.role === 'end-user') {
      res
        .status(400)
        .type('html')
        .send(renderErrorPage('Invalid OAuth request', 'Pick an agent of this account'));
      return;
    }
    const code = randomHex(32);
    state.codes.set(code, {
      code,
      subdomain: account.subdomain,
      client_identifier: checked.client.identifier,
      user_id: user.id,
      redirect_uri: checked.redirectUri,
      scopes: parseScopes(text(body, 'scope')),
      code_challenge: text(body, 'code_challenge') ?? null,
      code_challenge_method: text(body, 'code_challenge_method') ?? null,
      expires_at: state.now() + AUTHORIZATION_CODE_TTL_SECONDS * 1000,
      used: false,
    });
    redirectWith(res, checked.redirectUri, { code, state: stateParam });
  });

  const authenticateClient = (
    req: Request,
    account: AccountRecord,
    body: Record<string, unknown>,
    allowPublic: boolean,
  ) => {
    let clientId = text(body, 'client_id');
    let secret = text(body, 'client_secret');
    const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (basic?.[1]) {
      const [id, pass] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
      clientId = id;
      secret = pass;
    }
    const client =
      clientId === undefined ? undefined : state.clientFor(account.subdomain, clientId);
    if (!client) throw new OAuthError(401, 'invalid_client', INVALID_CLIENT);
    if (client.kind === 'public' && allowPublic && secret === undefined) return client;
    if (secret !== client.secret) throw new OAuthError(401, 'invalid_client', INVALID_CLIENT);
    return client;
  };

  router.post('/oauth/tokens', express.json(), formParser, (req, res) => {
    const account = accountOf(res);
    try {
      if (!account) throw new OAuthError(404, 'invalid_request', 'No such account');
      const body = (req.body ?? {}) as Record<string, unknown>;
      const grant = text(body, 'grant_type');
      const expiresIn = lifetime(text(body, 'expires_in'), ACCESS_TOKEN_BOUNDS, 'expires_in');
      const refreshExpiresIn = lifetime(
        text(body, 'refresh_token_expires_in'),
        REFRESH_TOKEN_BOUNDS,
        'refresh_token_expires_in',
      );
      const options = { expiresIn, refreshExpiresIn, withRefresh: true };
      let issued;
      if (grant === 'authorization_code') {
        const client = authenticateClient(req, account, body, true);
        const code = state.codes.get(text(body, 'code') ?? '');
        const valid =
          code !== undefined &&
          !code.used &&
          code.expires_at > state.now() &&
          code.subdomain === account.subdomain &&
          code.client_identifier === client.identifier &&
          code.redirect_uri === text(body, 'redirect_uri');
        if (code) code.used = true;
        if (!valid) throw new OAuthError(400, 'invalid_grant', INVALID_GRANT);
        if (
          code.code_challenge !== null &&
          !pkceMatches(code.code_challenge, code.code_challenge_method, text(body, 'code_verifier'))
        ) {
          throw new OAuthError(400, 'invalid_grant', INVALID_GRANT);
        }
        const user = account.users.get(code.user_id);
        if (!user) throw new OAuthError(400, 'invalid_grant', INVALID_GRANT);
        issued = tokens.issue(account.subdomain, client, user, code.scopes, options);
      } else if (grant === 'refresh_token') {
        const client = authenticateClient(req, account, body, true);
        const old = tokens.findRefresh(
          account.subdomain,
          client.identifier,
          text(body, 'refresh_token') ?? '',
        );
        const user = old ? account.users.get(old.user_id) : undefined;
        if (!old || !user) throw new OAuthError(400, 'invalid_grant', INVALID_GRANT);
        const requested = parseScopes(text(body, 'scope'));
        if (requested.some((s) => !old.scopes.includes(s))) {
          throw new OAuthError(
            400,
            'invalid_scope',
            'The requested scope is invalid, unknown, or malformed.',
          );
        }
        // Rotation: the old access token and the old refresh token both stop working.
        tokens.revoke(old);
        issued = tokens.issue(
          account.subdomain,
          client,
          user,
          requested.length > 0 ? requested : old.scopes,
          options,
        );
      } else if (grant === 'client_credentials') {
        const client = authenticateClient(req, account, body, false);
        const scopes = parseScopes(text(body, 'scope'));
        if (scopes.length === 0 || !scopes.every(isKnownScope)) {
          throw new OAuthError(
            400,
            'invalid_scope',
            'The requested scope is invalid, unknown, or malformed.',
          );
        }
        // Acts as the client's creator; for a global client (or an unknown creator) the account's first
        // admin: Zendesk's exact subject for a global client is unconfirmed.
        const owner =
          client.owner_user_id === null ? undefined : account.users.get(client.owner_user_id);
        issued = tokens.issue(
          account.subdomain,
          client,
          owner ?? state.ownerAdmin(account),
          scopes,
          { ...options, withRefresh: false },
        );
      } else {
        throw new OAuthError(
          400,
          'unsupported_grant_type',
          'The authorization grant type is not supported by the authorization server.',
        );
      }
      res.setHeader('Cache-Control', 'no-store');
      res.json({
        access_token: issued.access_token,
        token_type: 'bearer',
        scope: issued.scopes.join(' '),
        expires_in: expiresIn,
        ...(issued.refresh_token !== null
          ? { refresh_token: issued.refresh_token, refresh_token_expires_in: refreshExpiresIn }
          : {}),
      });
    } catch (error) {
      if (error instanceof OAuthError) {
        res.status(error.status).json({ error: error.code, error_description: error.description });
        return;
      }
      throw error;
    }
  });

  return router;
}

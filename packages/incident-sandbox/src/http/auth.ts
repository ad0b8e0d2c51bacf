import type { Request, RequestHandler, Response } from 'express';
import type { ApiKeyRecord } from '../state/model';
import type { SandboxStore } from '../state/store';
import { HttpError, UNAUTHORIZED_CLIENT } from './errors';

export function requireApiKey(store: SandboxStore): RequestHandler {
  return (req, res, next) => {
    const header = req.get('x-api-key');
    const key = header ? store.state.apiKeys.find((k) => k.key === header) : undefined;
    if (!key) {
      next(
        new HttpError(
          401,
          header ? 'Unauthorized. Invalid API key.' : 'Unauthorized. Missing x-api-key header.',
        ),
      );
      return;
    }
    res.locals.apiKey = key;
    next();
  };
}

export function apiKeyOf(res: Response): ApiKeyRecord {
  return res.locals.apiKey as ApiKeyRecord;
}

/**
 * The clients a request acts for: the one named by clientId (401 when the key is not authorised for
 * it), otherwise every client on the key.
 */
export function clientScope(key: ApiKeyRecord, clientId: string | undefined): string[] {
  if (clientId === undefined) return key.clientIds;
  if (!key.clientIds.includes(clientId)) throw new HttpError(401, UNAUTHORIZED_CLIENT);
  return [clientId];
}

/** The single client a request acts for: clientId when authorised, otherwise the key owner. */
export function actingClient(key: ApiKeyRecord, clientId: string | undefined): string {
  return clientScope(key, clientId ?? key.clientId)[0] as string;
}

/**
 * Authentication rule 2 for every endpoint, in one place: a `clientId` in the query string or JSON
 * body that the key is not authorised for gives 401 before the route runs. Multipart bodies are read
 * by their routes, which check their `clientId` field with clientScope/actingClient.
 */
export function requireAuthorisedClientId(): RequestHandler {
  return (req, res, next) => {
    const key = apiKeyOf(res);
    const body = req.body as Record<string, unknown> | undefined;
    const named = [
      req.query.clientId,
      body && typeof body === 'object' ? body.clientId : undefined,
    ];
    const denied = named.some((id) => typeof id === 'string' && !key.clientIds.includes(id));
    next(denied ? new HttpError(401, UNAUTHORIZED_CLIENT) : undefined);
  };
}

/** clientId from the query string, or from the JSON body for writes. */
export function requestedClientId(req: Request): string | undefined {
  const fromQuery = req.query.clientId;
  if (typeof fromQuery === 'string') return fromQuery;
  const body = req.body as Record<string, unknown> | undefined;
  return body && typeof body.clientId === 'string' ? body.clientId : undefined;
}

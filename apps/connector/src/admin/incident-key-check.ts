// Before an incident API key is saved, the incident service is asked which clients it covers
// (GET /v1/clients): a key it refuses, or one that does not cover the client named, is not saved.
import type { AppErrorCode } from '../http';
import {
  APIConnectionError,
  createIncidentClient,
  PermissionDeniedError,
  UnauthorizedError,
  type FetchLike,
} from '@incident-desk/incident-api';

export type IncidentKeyCheck =
  | { ok: true; clientName: string }
  | {
      ok: false;
      status: number;
      code: AppErrorCode;
      message: string;
      /** What the admin page words the refusal with (client_not_covered: which clients). */
      facts?: { missing: string[]; covered: string[] };
    };

export async function checkIncidentKey(input: {
  baseUrl: string;
  apiKey: string;
  clientId: string;
  subClientIds: string[];
  fetch?: FetchLike;
}): Promise<IncidentKeyCheck> {
  const client = createIncidentClient({
    baseURL: input.baseUrl,
    apiKey: input.apiKey,
    timeoutMs: 10_000,
    retry: false,
    ...(input.fetch ? { fetch: input.fetch } : {}),
  });
  let covered: { id: string; name: string }[];
  try {
    covered = await client.clients.list();
  } catch (error) {
    if (error instanceof UnauthorizedError || error instanceof PermissionDeniedError)
      return {
        ok: false,
        status: 422,
        code: 'api_key_refused',
        message:
          'The incident service refused this API key. Check that it was copied whole and is still active; nothing was saved.',
      };
    if (error instanceof APIConnectionError)
      return {
        ok: false,
        status: 502,
        code: 'incident_unreachable',
        message:
          'The incident service could not be reached to check the key; nothing was saved. Try again.',
      };
    return {
      ok: false,
      status: 502,
      code: 'incident_check_failed',
      message: 'The incident service could not check the key; nothing was saved. Try again.',
    };
  }
  const byId = new Map(covered.map((client) => [client.id, client.name]));
  const missing = [input.clientId, ...input.subClientIds].filter((id) => !byId.has(id));
  if (missing.length > 0) {
    const known = covered.map((client) => `${client.id} (${client.name})`).join(', ');
    return {
      ok: false,
      status: 422,
      code: 'client_not_covered',
      message: `This API key does not cover ${missing.join(', ')}; it covers ${known || 'no client'}. Nothing was saved.`,
      facts: { missing, covered: covered.map((client) => `${client.id} (${client.name})`) },
    };
  }
  return { ok: true, clientName: byId.get(input.clientId)! };
}

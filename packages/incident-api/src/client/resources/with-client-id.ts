import type { Transport } from '../transport';

/** The call's own clientId wins; otherwise the client's default, when set. */
export function withClientId<T extends { clientId?: string }>(transport: Transport, query: T): T {
  const clientId = query.clientId ?? transport.defaultClientId;
  return clientId === undefined ? query : { ...query, clientId };
}

import type { z } from 'zod';
import type { ClientRecord } from '../../state/model';
import type { SandboxContext } from '../context';
import { HttpError } from '../errors';
import type { ZUpdateClient } from './schemas';

// Client changes shared by the JSON control API and the analyst console.

export function findClientForControl(
  { store }: Pick<SandboxContext, 'store'>,
  id: string,
): ClientRecord {
  const client = store.client(id);
  if (!client) throw new HttpError(404, `Client ${id} not found`);
  return client;
}

export function updateClient(
  { store }: Pick<SandboxContext, 'store'>,
  client: ClientRecord,
  body: z.infer<typeof ZUpdateClient>,
): void {
  Object.assign(client, body);
  store.changed();
}

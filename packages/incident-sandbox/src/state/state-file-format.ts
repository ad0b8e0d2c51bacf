// What a saved state must look like for this version of the sandbox to load it. The file is the
// sandbox's own writing, so the check is of its outline: the version and every collection.
import { readStateFile, type TStateFileRead } from '@incident-desk/state-file';
import type { SandboxState } from './model';

const COLLECTIONS = [
  'clients',
  'apiKeys',
  'incidents',
  'users',
  'documents',
  'webhooks',
  'deliveries',
] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The saved state, or an Error saying why this version cannot use it. */
export function parseSandboxState(json: unknown): SandboxState {
  if (!isObject(json)) throw new Error('not an incident sandbox state (not an object)');
  if (json.version !== 1)
    throw new Error(`state version ${String(json.version)}; this sandbox reads version 1`);
  if (!isObject(json.counters) || !isObject(json.settings))
    throw new Error('not an incident sandbox state (no counters or settings)');
  for (const name of COLLECTIONS) {
    if (!Array.isArray(json[name]))
      throw new Error(`not an incident sandbox state (${name} is not a list)`);
  }
  return json as unknown as SandboxState;
}

/** Reads a saved state without loading it (what `npm start` looks at before it starts anything). */
export function readIncidentSandboxStateFile(file: string): TStateFileRead<SandboxState> {
  return readStateFile(file, parseSandboxState);
}

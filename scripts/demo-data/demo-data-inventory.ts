// What the last run left: each sandbox's state file (read with the sandbox's own check) and the
// connector's embedded database.
import { existsSync } from 'node:fs';
import { isMadeDataDir, makingDirOf } from '@incident-desk/db';
import { readIncidentSandboxStateFile } from '@incident-desk/incident-sandbox';
import type { TStateFileRead } from '@incident-desk/state-file';
import { readZendeskSandboxStateFile } from '@incident-desk/zendesk-sandbox';
import type { TDemoDataPaths } from './demo-data-paths';

type TSavedSandbox =
  | { kind: 'missing' }
  /** `count` of what a person made: tickets in the Zendesk sandbox, incidents in the other. */
  | { kind: 'usable'; count: number }
  | { kind: 'unusable'; reason: string };

export interface TDemoInventory {
  incident: TSavedSandbox;
  zendesk: TSavedSandbox;
  /**
   * `half-made`: a start that did not finish left its making behind, and no database;
   * `external`: a PostgreSQL server (DATABASE_URL), which start.ts cannot look at.
   */
  connector: 'present' | 'missing' | 'half-made' | 'external';
}

function saved<T>(read: TStateFileRead<T>, count: (state: T) => number): TSavedSandbox {
  if (read.kind === 'loaded') return { kind: 'usable', count: count(read.state) };
  return read;
}

export function takeInventory(paths: TDemoDataPaths): TDemoInventory {
  const db = paths.connectorDb;
  return {
    incident: saved(readIncidentSandboxStateFile(paths.incidentFile), (s) => s.incidents.length),
    zendesk: saved(readZendeskSandboxStateFile(paths.zendeskFile), (s) =>
      s.accounts.reduce((sum, account) => sum + account.tickets.length, 0),
    ),
    connector:
      db.kind === 'postgres'
        ? 'external'
        : isMadeDataDir(db.dir)
          ? 'present'
          : existsSync(makingDirOf(db.dir))
            ? 'half-made'
            : 'missing',
  };
}

// Where `npm start` keeps the demo: the connector's embedded database and a state file per
// sandbox, by default all in .data/. Relative paths are from the repository, as the connector
// resolves PGLITE_DIR; the sandboxes are handed absolute ones (they run in their own folders).
import path from 'node:path';

export interface TDemoDataPaths {
  /** The local data folder `npm run reset` empties. */
  dataDir: string;
  incidentFile: string;
  zendeskFile: string;
  /** The connector's database: a PGlite folder start.ts can look at, or a server it cannot. */
  connectorDb: { kind: 'pglite'; dir: string } | { kind: 'postgres' };
}

export function demoDataPaths(root: string, env: NodeJS.ProcessEnv): TDemoDataPaths {
  const dataDir = path.join(root, '.data');
  const from = (value: string) => path.resolve(root, value);
  const sandboxDir = env.SANDBOX_STATE_DIR
    ? from(env.SANDBOX_STATE_DIR)
    : path.join(dataDir, 'sandbox');
  return {
    dataDir,
    incidentFile: env.INCIDENT_SANDBOX_DATA_FILE
      ? from(env.INCIDENT_SANDBOX_DATA_FILE)
      : path.join(sandboxDir, 'incident.json'),
    zendeskFile: env.ZENDESK_SANDBOX_DATA_FILE
      ? from(env.ZENDESK_SANDBOX_DATA_FILE)
      : path.join(sandboxDir, 'zendesk.json'),
    connectorDb: env.DATABASE_URL
      ? { kind: 'postgres' }
      : {
          kind: 'pglite',
          dir: env.PGLITE_DIR ? from(env.PGLITE_DIR) : path.join(dataDir, 'pglite'),
        },
  };
}

/** A path as the terminal shows it: from the repository when inside it. */
export function shown(root: string, file: string): string {
  const relative = path.relative(root, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

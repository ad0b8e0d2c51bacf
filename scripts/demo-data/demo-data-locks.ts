// The demo's data is changed only while nothing uses it: the connector's database lock (the
// one the connector takes, packages/db/src/data-directory-lock.ts) and each sandbox's state file
// lock are held while start.ts or the reset looks and deletes.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DataDirectoryLockedError, lockDataDirectory } from '@incident-desk/db';
import { lockStateFile, StateFileLockedError } from '@incident-desk/state-file';
import type { TDemoDataPaths } from './demo-data-paths';

/** A process of the demo is running: its data must not change under it. */
export class DemoRunningError extends Error {
  constructor(
    readonly holderPid: number,
    what: string,
  ) {
    super(
      `The demo is running: process ${holderPid} uses ${what}. Stop it first (Ctrl-C in the terminal of npm start).`,
    );
    this.name = 'DemoRunningError';
  }
}

export interface TDemoDataLocks {
  lockPaths: string[];
  release(): void;
}

/** Takes every lock of the demo's data, or throws DemoRunningError naming the process in the way. */
export function lockDemoData(paths: TDemoDataPaths): TDemoDataLocks {
  const locks: { lockPath: string; release(): void }[] = [];
  const releaseAll = () => {
    for (const lock of locks.reverse()) lock.release();
  };
  try {
    if (paths.connectorDb.kind === 'pglite') {
      mkdirSync(path.dirname(paths.connectorDb.dir), { recursive: true });
      locks.push(lockDataDirectory(paths.connectorDb.dir));
    }
    for (const file of [paths.incidentFile, paths.zendeskFile]) locks.push(lockStateFile(file));
  } catch (error) {
    releaseAll();
    if (error instanceof DataDirectoryLockedError)
      throw new DemoRunningError(error.holderPid, `the connector's database ${error.dataDir}`);
    if (error instanceof StateFileLockedError)
      throw new DemoRunningError(error.holderPid, `the sandbox state ${error.file}`);
    throw error;
  }
  return { lockPaths: locks.map((lock) => lock.lockPath), release: releaseAll };
}

import { takePidLock, type PidLock } from '@incident-desk/state-file';
/** Another live process holds the PGlite data folder; opening it too would corrupt it for good. */
export class DataDirectoryLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
    readonly lockPath: string,
  ) {
    super(
      `The PGlite data folder ${dataDir} is in use by process ${holderPid} (lock file ${lockPath}). ` +
        `Stop that process, or point PGLITE_DIR at another folder, or set DATABASE_URL to use PostgreSQL.`,
    );
    this.name = 'DataDirectoryLockedError';
  }
}

export type TDataDirectoryLock = PidLock;

/** Takes `<dataDir>.lock` for this process, or throws DataDirectoryLockedError naming the holder. */
export function lockDataDirectory(dataDir: string): TDataDirectoryLock {
  const lockPath = `${dataDir}.lock`;
  return takePidLock(
    lockPath,
    (pid) => new DataDirectoryLockedError(dataDir, pid, lockPath),
    `the PGlite data folder ${dataDir}`,
  );
}

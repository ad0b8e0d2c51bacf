import { pidLockHolder, takePidLock, type PidLock } from './pid-lock';

/** Another live process keeps this state: two writers would overwrite each other's changes. */
export class StateFileLockedError extends Error {
  constructor(
    readonly file: string,
    readonly holderPid: number,
    readonly lockPath: string,
  ) {
    super(
      `The state file ${file} is in use by process ${holderPid} (lock file ${lockPath}). ` +
        'Stop that process, or give this one another state file.',
    );
    this.name = 'StateFileLockedError';
  }
}

export type TStateFileLock = PidLock;

/** Takes `<file>.lock` for this process, or throws StateFileLockedError naming the live holder. */
export function lockStateFile(file: string): TStateFileLock {
  const lockPath = `${file}.lock`;
  return takePidLock(lockPath, (pid) => new StateFileLockedError(file, pid, lockPath), file);
}

/** The live process holding the file's lock, or null (no lock, or its process is gone). */
export function stateFileHolder(file: string): number | null {
  return pidLockHolder(`${file}.lock`);
}

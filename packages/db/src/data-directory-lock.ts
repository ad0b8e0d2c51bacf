import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

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

export type TDataDirectoryLock = {
  lockPath: string;
  release(): void;
};

// Locks this process holds, so a second open in the same process is refused while a lock left
// by an earlier process that happened to have our pid (containers reuse small pids) is taken over.
const heldByThisProcess = new Set<string>();

/**
 * Takes `<dataDir>.lock` for this process. The file is created complete in one step (a hard link to
 * a written temporary file), so a reader never sees a half-written pid.
 */
export function lockDataDirectory(dataDir: string): TDataDirectoryLock {
  const lockPath = `${dataDir}.lock`;
  if (heldByThisProcess.has(lockPath))
    throw new DataDirectoryLockedError(dataDir, process.pid, lockPath);
  const ours = `${JSON.stringify({ pid: process.pid, acquiredAt: new Date().toISOString() })}\n`;

  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(lockPath, ours)) {
      heldByThisProcess.add(lockPath);
      return { lockPath, release: () => release(lockPath, ours) };
    }
    const current = readOrNull(lockPath);
    if (current === null) continue; // released in between: try again
    const pid = parsePid(current);
    if (pid !== null && pid !== process.pid && isAlive(pid))
      throw new DataDirectoryLockedError(dataDir, pid, lockPath);
    takeOverStale(lockPath, current);
  }
  throw new Error(
    `Could not lock the PGlite data folder ${dataDir}: its lock file ${lockPath} keeps changing.`,
  );
}

function tryCreate(lockPath: string, content: string): boolean {
  const temporary = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, content);
  try {
    linkSync(temporary, lockPath);
    return true;
  } catch (error) {
    if (isErrno(error, 'EEXIST')) return false;
    throw error;
  } finally {
    unlinkSync(temporary);
  }
}

/**
 * Moves the stale lock aside and checks that what moved is the stale lock we judged: if another
 * process replaced it in the meantime, put that fresh lock back so the next attempt sees its holder.
 */
function takeOverStale(lockPath: string, staleContent: string): void {
  const aside = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(lockPath, aside);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return;
    throw error;
  }
  if (readOrNull(aside) !== staleContent) {
    try {
      linkSync(aside, lockPath);
    } catch (error) {
      if (!isErrno(error, 'EEXIST')) throw error;
    }
  }
  unlinkSync(aside);
}

function release(lockPath: string, ours: string): void {
  if (!heldByThisProcess.delete(lockPath)) return;
  if (readOrNull(lockPath) === ours) unlinkSync(lockPath);
}

function parsePid(content: string): number | null {
  try {
    const parsed: unknown = JSON.parse(content);
    if (typeof parsed === 'object' && parsed !== null && 'pid' in parsed) {
      const pid = parsed.pid;
      if (typeof pid === 'number' && Number.isInteger(pid) && pid > 0) return pid;
    }
  } catch {
    // Not ours (we only ever write complete JSON): treat as stale.
  }
  return null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return isErrno(error, 'EPERM');
  }
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return null;
    throw error;
  }
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}

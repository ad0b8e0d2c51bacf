// A lock file holding its owner's pid: taken by one process at a time, taken over from a process
// that is gone. The state files and the connector's PGlite data folder are both kept this way.
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface PidLock {
  lockPath: string;
  release(): void;
}

// Locks held by this process: a second take here is refused, while a lock left by an earlier
// process that had our pid (containers reuse small pids) is taken over.
const heldByThisProcess = new Set<string>();

/**
 * Takes `lockPath` for this process, or throws what `locked` makes of the live holder's pid. The
 * lock file appears complete in one step (a hard link to a written temporary file), so a reader
 * never sees a half-written pid.
 */
export function takePidLock(
  lockPath: string,
  locked: (holderPid: number) => Error,
  what: string,
): PidLock {
  if (heldByThisProcess.has(lockPath)) throw locked(process.pid);
  mkdirSync(path.dirname(lockPath), { recursive: true });
  const ours = `${JSON.stringify({ pid: process.pid, acquiredAt: new Date().toISOString() })}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(lockPath, ours)) {
      heldByThisProcess.add(lockPath);
      return { lockPath, release: () => release(lockPath, ours) };
    }
    const current = readOrNull(lockPath);
    if (current === null) continue; // released in between: try again
    const pid = pidIn(current);
    if (pid !== null && pid !== process.pid && isAlive(pid)) throw locked(pid);
    takeOverStale(lockPath, current);
  }
  throw new Error(`Could not lock ${what}: its lock file ${lockPath} keeps changing.`);
}

/** The live process holding `lockPath`, or null (no lock, or its process is gone). */
export function pidLockHolder(lockPath: string): number | null {
  const current = readOrNull(lockPath);
  const pid = current === null ? null : pidIn(current);
  return pid !== null && isAlive(pid) ? pid : null;
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

/** Moves the stale lock aside; if another process replaced it meanwhile, its fresh lock goes back. */
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

function pidIn(content: string): number | null {
  try {
    const parsed: unknown = JSON.parse(content);
    if (typeof parsed === 'object' && parsed !== null && 'pid' in parsed) {
      const pid = parsed.pid;
      if (typeof pid === 'number' && Number.isInteger(pid) && pid > 0) return pid;
    }
  } catch {
    // not a lock this module wrote (it writes complete JSON only): stale
  }
  return null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user
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

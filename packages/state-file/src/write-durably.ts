import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/**
 * Replaces `file` with `text` so that a crash at any moment leaves the old content or the new,
 * never a mix or an empty file: written to a temporary file beside it, flushed to disk, renamed
 * over it, then the folder flushed so the rename itself survives a power cut.
 */
export function writeFileDurably(file: string, text: string): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  flushDirectory(dir);
}

function flushDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some platforms cannot open or flush a folder (Windows); the rename is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

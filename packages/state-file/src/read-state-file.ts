import { readFileSync, renameSync } from 'node:fs';

export type TStateFileRead<T> =
  | { kind: 'missing' }
  | { kind: 'loaded'; state: T }
  /** Unreadable, not JSON, or not a state this version understands (`parse` threw). */
  | { kind: 'unusable'; reason: string };

/**
 * Reads a saved state. `parse` checks the JSON and returns the state, or throws an Error whose
 * message says why this version cannot use it (another format, another version).
 */
export function readStateFile<T>(file: string, parse: (json: unknown) => T): TStateFileRead<T> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return { kind: 'missing' };
    return { kind: 'unusable', reason: messageOf(error) };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'unusable', reason: `not JSON (${messageOf(error)})` };
  }
  try {
    return { kind: 'loaded', state: parse(json) };
  } catch (error) {
    return { kind: 'unusable', reason: messageOf(error) };
  }
}

/**
 * Moves an unusable state file out of the way, kept for a look, so a fresh state can take its
 * place: `<file>.unusable-<time>`. Returns where it went.
 */
export function setStateFileAside(file: string, now: Date = new Date()): string {
  const aside = `${file}.unusable-${now.toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, aside);
  return aside;
}

export type TStateFileOpening<T> =
  | { kind: 'missing' }
  | { kind: 'loaded'; state: T }
  | { kind: 'set-aside'; reason: string; asidePath: string };

/** Reads a saved state; an unusable file is set aside (the caller then starts fresh and says so). */
export function openStateFile<T>(file: string, parse: (json: unknown) => T): TStateFileOpening<T> {
  const read = readStateFile(file, parse);
  if (read.kind !== 'unusable') return read;
  return { kind: 'set-aside', reason: read.reason, asidePath: setStateFileAside(file) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  lockStateFile,
  openStateFile,
  readStateFile,
  StateFileLockedError,
  stateFileHolder,
  StateFileWriter,
  writeFileDurably,
} from '../src';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'state-file-'));
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

const parseCounter = (json: unknown): { n: number } => {
  if (typeof json !== 'object' || json === null || !('n' in json) || typeof json.n !== 'number')
    throw new Error('not a counter state');
  return { n: json.n };
};

describe('writeFileDurably', () => {
  it('replaces the file whole, creating its folder, and leaves no temporary file', () => {
    const file = path.join(dir, 'nested', 'state.json');
    writeFileDurably(file, '{"n":1}');
    writeFileDurably(file, '{"n":2}');
    expect(readFileSync(file, 'utf8')).toBe('{"n":2}');
    expect(readdirSync(path.dirname(file))).toEqual(['state.json']);
  });
});

describe('StateFileWriter', () => {
  it('writes once after a burst of changes, and not again while nothing changed', () => {
    vi.useFakeTimers();
    const file = path.join(dir, 'state.json');
    let n = 0;
    const writer = new StateFileWriter({
      file,
      serialize: () => JSON.stringify({ n }),
      delayMs: 100,
    });
    n = 1;
    writer.changed();
    n = 2;
    writer.changed();
    expect(existsSync(file)).toBe(false);
    vi.advanceTimersByTime(100);
    expect(readFileSync(file, 'utf8')).toBe('{"n":2}');

    rmSync(file);
    writer.changed();
    vi.advanceTimersByTime(100);
    writer.flush();
    expect(existsSync(file)).toBe(false); // the same state is not written twice
  });

  it('flush writes at once; after close nothing is written', () => {
    vi.useFakeTimers();
    const file = path.join(dir, 'state.json');
    let n = 1;
    const writer = new StateFileWriter({
      file,
      serialize: () => JSON.stringify({ n }),
      delayMs: 10_000,
    });
    writer.changed();
    writer.close();
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}');
    n = 2;
    writer.changed();
    vi.advanceTimersByTime(20_000);
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}');
  });

  it('reports a failed write after a change and tries again on the next', () => {
    vi.useFakeTimers();
    const blocker = path.join(dir, 'not-a-folder');
    writeFileSync(blocker, '');
    const errors: unknown[] = [];
    const writer = new StateFileWriter({
      file: path.join(blocker, 'state.json'),
      serialize: () => '{}',
      delayMs: 10,
      onError: (error) => errors.push(error),
    });
    writer.changed();
    vi.advanceTimersByTime(10);
    expect(errors).toHaveLength(1);
    expect(() => writer.flush()).toThrow();
  });
});

describe('reading a state file', () => {
  it('tells a missing file from a loaded one', () => {
    const file = path.join(dir, 'state.json');
    expect(readStateFile(file, parseCounter)).toEqual({ kind: 'missing' });
    writeFileSync(file, '{"n":3}');
    expect(readStateFile(file, parseCounter)).toEqual({ kind: 'loaded', state: { n: 3 } });
  });

  it.each([
    ['an empty file', ''],
    ['a cut file', '{"n":'],
    ['another format', '{"version":9}'],
  ])('finds %s unusable, and sets it aside to start fresh', (_name, content) => {
    const file = path.join(dir, 'state.json');
    writeFileSync(file, content);
    const read = readStateFile(file, parseCounter);
    expect(read.kind).toBe('unusable');
    const opened = openStateFile(file, parseCounter);
    expect(opened).toMatchObject({ kind: 'set-aside' });
    if (opened.kind !== 'set-aside') return;
    expect(opened.reason).toBe(read.kind === 'unusable' ? read.reason : '');
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(opened.asidePath, 'utf8')).toBe(content);
    expect(path.basename(opened.asidePath)).toMatch(/^state\.json\.unusable-/);
  });
});

describe('lockStateFile', () => {
  it('refuses a second holder in this process until released', () => {
    const file = path.join(dir, 'state.json');
    const lock = lockStateFile(file);
    expect(stateFileHolder(file)).toBe(process.pid);
    expect(() => lockStateFile(file)).toThrow(StateFileLockedError);
    lock.release();
    expect(existsSync(lock.lockPath)).toBe(false);
    expect(stateFileHolder(file)).toBeNull();
    lockStateFile(file).release();
  });

  it('names a live holder in another process, and takes over a dead one', () => {
    const file = path.join(dir, 'state.json');
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.ppid }));
    expect(() => lockStateFile(file)).toThrow(new RegExp(`in use by process ${process.ppid}`));
    // pids are at most 2^22 on Linux: this one cannot be alive
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: 2 ** 22 + 1 }));
    expect(stateFileHolder(file)).toBeNull();
    const lock = lockStateFile(file);
    expect(JSON.parse(readFileSync(lock.lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });
});

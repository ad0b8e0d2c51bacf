import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirectoryLockedError, type TDatabase } from '../src/index';
import { runFixture, spawnFixture } from './helpers/child-process';
import { createTestDatabase, type TestDatabase } from './helpers/test-database';
import path from 'node:path';

/** A pid that is certainly not running: a child that has already exited. */
async function deadPid(): Promise<number> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  if (child.pid === undefined) throw new Error('no pid');
  return child.pid;
}

describe('PGlite data folder lock', () => {
  let target: TestDatabase;
  let dataDir: string;
  let lockPath: string;

  beforeAll(async () => {
    target = await createTestDatabase('pglite', { uninitialised: true });
    dataDir = target.options.pgliteDir as string;
    lockPath = `${dataDir}.lock`;
  });

  afterAll(async () => {
    await target?.dispose();
  });

  it('creates missing parent folders and holds a lock with its pid until close', async () => {
    expect(existsSync(path.dirname(dataDir))).toBe(false);
    const db = await target.open();
    try {
      expect(db.backend === 'pglite' && db.dataDir).toBe(dataDir);
      expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    } finally {
      await db.close();
    }
    expect(existsSync(lockPath)).toBe(false);
  });

  it('refuses a second process, naming the folder and the holder’s pid', async () => {
    const db: TDatabase = await target.open();
    try {
      const child = await runFixture('try-open.ts', [JSON.stringify(target.options)]);
      expect(child.code).toBe(3);
      expect(child.stdout).not.toContain('opened');
      expect(child.stderr).toContain(
        `The PGlite data folder ${dataDir} is in use by process ${process.pid}`,
      );
      // The refused process left the holder's lock and data alone.
      expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
      await expect(db.prisma.account.count()).resolves.toBeTypeOf('number');
    } finally {
      await db.close();
    }
    // Once released, the other process gets in.
    const after = await runFixture('try-open.ts', [JSON.stringify(target.options)]);
    expect(after.stderr).toBe('');
    expect(after.stdout).toContain('opened pglite');
    expect(after.code).toBe(0);
  });

  it('makes a new folder whole or not at all: a process killed while making it leaves no database', async () => {
    const fresh = await createTestDatabase('pglite', { uninitialised: true });
    const freshDir = fresh.options.pgliteDir as string;
    try {
      const child = spawnFixture('try-open.ts', [JSON.stringify(fresh.options)]);
      const exited = new Promise((resolve) => child.on('exit', resolve));
      // killed once the cluster is being made (its making folder exists), before it is whole
      while (!existsSync(`${freshDir}.making`) && child.exitCode === null)
        await new Promise((resolve) => setTimeout(resolve, 20));
      child.kill('SIGKILL');
      await exited;
      expect(existsSync(freshDir)).toBe(false);
      const db = await fresh.open();
      try {
        await expect(db.prisma.account.count()).resolves.toBe(0);
      } finally {
        await db.close();
      }
      expect(existsSync(`${freshDir}.making`)).toBe(false);
    } finally {
      await fresh.dispose();
    }
  });

  it('refuses a second open in the same process', async () => {
    const db = await target.open();
    try {
      const error = await target.open().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DataDirectoryLockedError);
      expect(error).toMatchObject({ dataDir, holderPid: process.pid, lockPath });
    } finally {
      await db.close();
    }
  });

  it('takes over a stale lock left by a dead process', async () => {
    const pid = await deadPid();
    writeFileSync(lockPath, `${JSON.stringify({ pid, acquiredAt: '2026-01-01T00:00:00.000Z' })}\n`);
    const db = await target.open();
    try {
      expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
      await expect(db.prisma.account.count()).resolves.toBeTypeOf('number');
    } finally {
      await db.close();
    }
    expect(existsSync(lockPath)).toBe(false);
  });

  it('takes over a lock file it cannot read a pid from, and one left by an earlier process with its own pid', async () => {
    for (const content of ['garbage', `${JSON.stringify({ pid: process.pid })}\n`]) {
      mkdirSync(path.dirname(lockPath), { recursive: true });
      writeFileSync(lockPath, content);
      const db = await target.open();
      await db.close();
      expect(existsSync(lockPath)).toBe(false);
    }
  });
});

import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type TDatabase, type OpenDatabaseOptions } from '../../src/index';
import { testBackends, type Backend } from '../../../../scripts/test-backends';

export type TBackend = Backend;

/** The backends this run covers (scripts/test-backends.ts). */
export const backends: TBackend[] = testBackends();

export type TestDatabase = {
  backend: TBackend;
  /** Options that open this file's database (PGlite folder or fresh PostgreSQL database). */
  options: OpenDatabaseOptions & { databaseUrl: string | null };
  /** A scratch folder removed by dispose(). */
  tempDir: string;
  open(extra?: OpenDatabaseOptions): Promise<TDatabase>;
  dispose(): Promise<void>;
};

/**
 * A fresh, empty database for one test file: a temporary PGlite folder or a new PostgreSQL database.
 * The PGlite folder is a copy of an initialised empty one (initdb in WebAssembly takes seconds),
 * unless `uninitialised` asks for a folder that does not exist yet.
 */
export async function createTestDatabase(
  backend: TBackend,
  { uninitialised = false }: { uninitialised?: boolean } = {},
): Promise<TestDatabase> {
  const tempDir = mkdtempSync(path.join(tmpdir(), 'incident-desk-db-'));
  if (backend === 'pglite') {
    const options = { databaseUrl: null, pgliteDir: path.join(tempDir, 'data', 'pglite') };
    if (!uninitialised) cpSync(inject('pgliteTemplate'), options.pgliteDir, { recursive: true });
    return {
      backend,
      options,
      tempDir,
      open: (extra) => openDatabase({ ...options, ...extra }),
      dispose: async () => rmSync(tempDir, { recursive: true, force: true }),
    };
  }

  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL is not set');
  const name = `incident_desk_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const options = { databaseUrl: url.toString() };
  return {
    backend,
    options,
    tempDir,
    open: (extra) => openDatabase({ ...options, ...extra }),
    dispose: async () => {
      await withAdminClient(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
      rmSync(tempDir, { recursive: true, force: true });
    },
  };
}

async function withAdminClient<T>(
  url: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

// A database that exists only for one benchmark target: a fresh PostgreSQL database (dropped
// afterwards) or a PGlite folder under the system temp folder (removed afterwards). The server
// under test opens it; once that process has exited, `query` reads what it left behind.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '@incident-desk/db';

type Backend = 'postgres' | 'pglite';

export interface BenchDatabase {
  backend: Backend;
  location: { databaseUrl: string } | { pgliteDir: string };
  query<TRow>(text: string, values?: unknown[]): Promise<TRow[]>;
  dispose(): Promise<void>;
}

export async function createPostgresBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `incident_desk_bench_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  return {
    backend: 'postgres',
    location: { databaseUrl },
    query: (text, values) =>
      withClient(databaseUrl, async (client) => (await client.query(text, values)).rows),
    dispose: () =>
      withClient(adminUrl, async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }),
  };
}

export function createPgliteBenchDatabase(): BenchDatabase {
  const dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-bench-'));
  const pgliteDir = path.join(dir, 'pglite');
  return {
    backend: 'pglite',
    location: { pgliteDir },
    query: async (text, values) => {
      const db = await openDatabase({ databaseUrl: null, pgliteDir });
      try {
        if (db.backend !== 'pglite') throw new Error('expected PGlite');
        return (await db.pglite.query(text, values)).rows as never;
      } finally {
        await db.close();
      }
    },
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Null when DATABASE_URL answers a query, else why not (the PostgreSQL targets are then skipped). */
export async function postgresReachable(
  url = process.env.DATABASE_URL ?? '',
): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

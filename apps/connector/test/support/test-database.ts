import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type TDatabase } from '@incident-desk/db';

export type Backend = 'pglite' | 'postgres';

/**
 * PGlite always; PostgreSQL too when DATABASE_URL is set. TEST_BACKENDS (a comma list) narrows
 * them: CI's PostgreSQL pass sets it to `postgres`, the PGlite pass having run just before.
 */
export const backends: Backend[] = (
  process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const)
).filter((backend) => process.env.TEST_BACKENDS?.split(',').includes(backend) ?? true);

/** A fresh database for one test file, removed by dispose(). */
export async function openTestDatabase(
  backend: Backend,
): Promise<TDatabase & { dispose(): Promise<void> }> {
  if (backend === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-connector-'));
    const db = await openDatabase({ databaseUrl: null, pgliteDir: path.join(dir, 'pglite') });
    return Object.assign(db, {
      dispose: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    });
  }
  const adminUrl = process.env.DATABASE_URL!;
  const name = `incident_desk_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString() });
  return Object.assign(db, {
    dispose: async () => {
      await db.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  });
}

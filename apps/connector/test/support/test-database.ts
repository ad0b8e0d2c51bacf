import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type TDatabase } from '@incident-desk/db';
import { connectorDatabase, type ConnectorDatabase } from './connector-process';
import type { PgliteTemplate } from './pglite-template';
import type { PostgresTemplate } from './postgres-template';

export type Backend = 'pglite' | 'postgres';

/**
 * PGlite always; PostgreSQL too when DATABASE_URL is set. TEST_BACKENDS (a comma list) narrows
 * them: CI's PostgreSQL pass sets it to `postgres`, the PGlite pass having run just before.
 */
export const backends: Backend[] = (
  process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const)
).filter((backend) => process.env.TEST_BACKENDS?.split(',').includes(backend) ?? true);

/**
 * Makes `pgliteDir` a PGlite folder holding an empty, migrated database: a copy of the suite's
 * template (pglite-template.ts), so opening it needs neither initdb nor the migrations. Without a
 * template (outside the suite's global setup) the folder is left to be created on opening.
 */
export function seedPgliteFolder(pgliteDir: string): void {
  const template: PgliteTemplate = inject('connectorPgliteTemplate');
  if (template) cpSync(template, pgliteDir, { recursive: true });
}

/**
 * A fresh database a connector opens itself (PGLITE_DIR or DATABASE_URL), kept across its
 * restarts: connectorDatabase's, its PGlite folder seeded from the template.
 */
export function testConnectorDatabase(
  backend: Backend,
  dir: string,
  label: string,
): ConnectorDatabase {
  const database = connectorDatabase(backend, dir, label);
  if (database.env.PGLITE_DIR) seedPgliteFolder(database.env.PGLITE_DIR);
  return database;
}

/** A fresh database for one test file, removed by dispose(). */
export async function openTestDatabase(
  backend: Backend,
): Promise<TDatabase & { dispose(): Promise<void> }> {
  if (backend === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-connector-'));
    const pgliteDir = path.join(dir, 'pglite');
    seedPgliteFolder(pgliteDir);
    const db = await openDatabase({ databaseUrl: null, pgliteDir });
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
  // a copy of the suite's migrated template (postgres-template.ts), when the suite made one
  const template: PostgresTemplate = inject('connectorPostgresTemplate');
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
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

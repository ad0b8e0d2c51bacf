import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { openDatabase, type TDatabase } from '@incident-desk/db';
import { connectorDatabase, withPostgresClient, type ConnectorDatabase } from './connector-process';
import type { DatabaseTemplates } from './database-templates';
import { testBackends, type Backend } from '../../../../scripts/test-backends';

export type { Backend };

/** The backends this run covers (scripts/test-backends.ts). */
export const backends: Backend[] = testBackends();

/** The suite's templates (none outside its global setup, e.g. a file run by another project). */
function templates(): DatabaseTemplates {
  return inject('connectorDatabaseTemplates') ?? {};
}

/**
 * Makes `pgliteDir` a PGlite folder holding an empty, migrated database: a copy of the suite's
 * template (database-templates.ts), so opening it needs neither initdb nor the migrations. Without a
 * template (outside the suite's global setup) the folder is left to be created on opening.
 */
function seedPgliteFolder(pgliteDir: string): void {
  const template = templates().pglite;
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
  // a copy of the suite's migrated template (database-templates.ts), when the suite made one
  const template = templates().postgres;
  await withPostgresClient(adminUrl, (admin) =>
    admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`),
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString() });
  return Object.assign(db, {
    dispose: async () => {
      await db.close();
      await withPostgresClient(adminUrl, (admin) =>
        admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  });
}

// A global setup (vitest.config.ts): for each backend the run covers (TEST_BACKENDS), one empty
// database, migrated and holding pg-boss's tables, which each test file's database copies
// (test-database.ts) instead of running initdb in WebAssembly, every migration and pg-boss's
// install again, seconds per file: a PGlite folder, copied; a PostgreSQL database, the TEMPLATE of
// each file's CREATE DATABASE.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createJobQueue, openDatabase, type OpenDatabaseOptions } from '@incident-desk/db';
import { testBackends } from '../../../../scripts/test-backends';
import { withPostgresClient } from './connector-process';

/** The PGlite folder and the PostgreSQL database's name; a backend the run leaves out has none. */
export interface DatabaseTemplates {
  pglite?: string;
  postgres?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    connectorDatabaseTemplates: DatabaseTemplates;
  }
}

let pgliteFolder: string | undefined;
let postgresTemplate: string | undefined;

async function migrateWithJobQueue(options: OpenDatabaseOptions): Promise<void> {
  const db = await openDatabase(options);
  await createJobQueue(db); // installs its schema; stopped when the database closes
  await db.close();
}

async function pgliteTemplate(): Promise<string> {
  pgliteFolder = mkdtempSync(path.join(tmpdir(), 'incident-desk-connector-template-'));
  const pgliteDir = path.join(pgliteFolder, 'pglite');
  await migrateWithJobQueue({ databaseUrl: null, pgliteDir });
  return pgliteDir;
}

async function postgresTemplateDatabase(): Promise<string> {
  const name = `incident_desk_template_${randomBytes(6).toString('hex')}`;
  await withPostgresClient(process.env.DATABASE_URL!, (client) =>
    client.query(`CREATE DATABASE ${name}`),
  );
  postgresTemplate = name;
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  await migrateWithJobQueue({ databaseUrl: url.toString() });
  return name;
}

export async function setup(project: TestProject): Promise<void> {
  const backends = testBackends();
  project.provide('connectorDatabaseTemplates', {
    ...(backends.includes('pglite') ? { pglite: await pgliteTemplate() } : {}),
    ...(backends.includes('postgres') ? { postgres: await postgresTemplateDatabase() } : {}),
  });
}

export async function teardown(): Promise<void> {
  if (pgliteFolder) rmSync(pgliteFolder, { recursive: true, force: true });
  if (postgresTemplate)
    await withPostgresClient(process.env.DATABASE_URL!, (client) =>
      client.query(`DROP DATABASE IF EXISTS ${postgresTemplate} WITH (FORCE)`),
    );
}

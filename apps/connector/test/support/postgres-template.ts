// A global setup (vitest.config.ts): when the run includes PostgreSQL, one database migrated and
// holding pg-boss's tables, which each test file's database is created from (CREATE DATABASE …
// TEMPLATE, a file copy) instead of running every migration and pg-boss's install again.
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { createJobQueue, openDatabase } from '@incident-desk/db';
import { testBackends } from '../../../../scripts/test-backends';
import { withPostgresClient } from './connector-process';

/** The template database's name; absent when PostgreSQL is not among the backends. */
export type PostgresTemplate = string | undefined;

declare module 'vitest' {
  export interface ProvidedContext {
    connectorPostgresTemplate: PostgresTemplate;
  }
}

let template: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  if (!testBackends().includes('postgres')) {
    project.provide('connectorPostgresTemplate', undefined);
    return;
  }
  const name = `incident_desk_template_${randomBytes(6).toString('hex')}`;
  await withPostgresClient(process.env.DATABASE_URL!, (client) =>
    client.query(`CREATE DATABASE ${name}`),
  );
  template = name;
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString() });
  await createJobQueue(db); // installs its schema; stopped when the database closes
  await db.close();
  project.provide('connectorPostgresTemplate', name);
}

export async function teardown(): Promise<void> {
  if (template)
    await withPostgresClient(process.env.DATABASE_URL!, (client) =>
      client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`),
    );
}

// A global setup (vitest.config.ts): when the run includes PostgreSQL, one database migrated and
// holding pg-boss's tables, which each test file's database is created from (CREATE DATABASE …
// TEMPLATE, a file copy) instead of running every migration and pg-boss's install again.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createJobQueue, openDatabase } from '@incident-desk/db';

/** The template database's name; absent when PostgreSQL is not among the backends. */
export type PostgresTemplate = string | undefined;

declare module 'vitest' {
  export interface ProvidedContext {
    connectorPostgresTemplate: PostgresTemplate;
  }
}

let template: string | undefined;

async function onServer(work: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

export async function setup(project: TestProject): Promise<void> {
  const onlyBackends = process.env.TEST_BACKENDS?.split(',');
  if (!process.env.DATABASE_URL || (onlyBackends && !onlyBackends.includes('postgres'))) {
    project.provide('connectorPostgresTemplate', undefined);
    return;
  }
  const name = `incident_desk_template_${randomBytes(6).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE ${name}`).then(() => undefined));
  template = name;
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString() });
  await createJobQueue(db); // installs its schema; stopped when the database closes
  await db.close();
  project.provide('connectorPostgresTemplate', name);
}

export async function teardown(): Promise<void> {
  if (template)
    await onServer((client) =>
      client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).then(() => undefined),
    );
}

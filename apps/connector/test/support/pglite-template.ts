// A global setup (vitest.config.ts): one PGlite folder holding an empty, migrated database with
// pg-boss's tables, which test files copy (test-database.ts) instead of each running initdb in
// WebAssembly, every migration and pg-boss's install again, seconds per file. Not made when the
// run leaves PGlite out (TEST_BACKENDS).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createJobQueue, openDatabase } from '@incident-desk/db';
import { testBackends } from '../../../../scripts/test-backends';

/** The migrated empty PGlite folder; absent when PGlite is not among the backends. */
export type PgliteTemplate = string | undefined;

declare module 'vitest' {
  export interface ProvidedContext {
    connectorPgliteTemplate: PgliteTemplate;
  }
}

let folder: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  if (!testBackends().includes('pglite')) {
    project.provide('connectorPgliteTemplate', undefined);
    return;
  }
  folder = mkdtempSync(path.join(tmpdir(), 'incident-desk-connector-template-'));
  const pgliteDir = path.join(folder, 'pglite');
  const db = await openDatabase({ databaseUrl: null, pgliteDir });
  await createJobQueue(db); // installs its schema; stopped when the database closes
  await db.close();
  project.provide('connectorPgliteTemplate', pgliteDir);
}

export function teardown(): void {
  if (folder) rmSync(folder, { recursive: true, force: true });
}

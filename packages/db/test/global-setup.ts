import { PGlite } from '@electric-sql/pglite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An initialised, empty PGlite data folder that test files copy instead of running initdb each. */
    pgliteTemplate: string;
  }
}

let folder: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  folder = mkdtempSync(path.join(tmpdir(), 'incident-desk-pglite-template-'));
  const dataDir = path.join(folder, 'pglite');
  const pglite = await PGlite.create(dataDir);
  await pglite.close();
  project.provide('pgliteTemplate', dataDir);
}

export function teardown(): void {
  if (folder) rmSync(folder, { recursive: true, force: true });
}

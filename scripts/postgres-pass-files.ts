// The test files a PostgreSQL-only pass runs (TEST_BACKENDS without pglite, as CI runs it after the
// PGlite pass): those that can reach PostgreSQL, because they take their database from the backends
// list or read DATABASE_URL. Every other file runs the same on any backend, so the PGlite pass has
// already run it as it is.
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';

const REACHES_POSTGRES = /\bbackends\b|\bDATABASE_URL\b/;

/** Whether this run leaves PGlite out (TEST_BACKENDS names the backends to run). */
export function postgresOnlyPass(env: NodeJS.ProcessEnv = process.env): boolean {
  const only = env.TEST_BACKENDS?.split(',');
  return only !== undefined && !only.includes('pglite');
}

/**
 * `include` as it is, or in a PostgreSQL-only pass the files it matches under `projectDir` that
 * reach PostgreSQL (paths relative to it, as vitest's include takes them).
 */
export function includeForBackends(
  projectDir: string,
  include: string[],
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  if (!postgresOnlyPass(env)) return include;
  return globSync(include, { cwd: projectDir, exclude: ['**/node_modules/**'] })
    .filter((file) => REACHES_POSTGRES.test(readFileSync(path.join(projectDir, file), 'utf8')))
    .sort();
}

// Which database backends a test run covers, and so which test files it runs. PGlite always;
// PostgreSQL too when DATABASE_URL is set; TEST_BACKENDS (a comma list) narrows them: CI's
// PostgreSQL pass sets it to `postgres`, the PGlite pass having run just before.
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type Backend = 'pglite' | 'postgres';

/** The backends this run's database tests take. */
export function testBackends(env: NodeJS.ProcessEnv = process.env): Backend[] {
  const available: Backend[] = env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  const only = env.TEST_BACKENDS?.split(',');
  return only ? available.filter((backend) => only.includes(backend)) : available;
}

/** Whether this run leaves PGlite out: a PostgreSQL-only pass. */
export function postgresOnlyPass(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.TEST_BACKENDS !== undefined && !testBackends(env).includes('pglite');
}

// A file reaches PostgreSQL only by taking the backends list or reading DATABASE_URL: any other
// runs the same on every backend, so the PGlite pass has already run it as it is.
const REACHES_POSTGRES = /\bbackends\b|\bDATABASE_URL\b/;

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

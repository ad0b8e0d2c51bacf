// Where the connector finds the files it reads at run time when no variable names them. A build
// (npm run build) carries them beside its bundle, so a release folder runs wherever it is put;
// sources (npm start, tests) read them from the repository.
import path from 'node:path';
import { baseDir, buildDir, migrationsDir, repoRoot } from '@incident-desk/db';

export interface RuntimePaths {
  migrationsDir: string;
  adminDistDir: string;
  sidebarDistDir: string;
  /** Development only: the generated sealing key. */
  secretKeysFile: string;
}

export const DEFAULT_RUNTIME_PATHS: RuntimePaths = {
  migrationsDir,
  adminDistDir:
    buildDir === null ? path.join(repoRoot, 'apps', 'admin', 'dist') : path.join(buildDir, 'admin'),
  sidebarDistDir:
    buildDir === null
      ? path.join(repoRoot, 'apps', 'sidebar', 'dist')
      : path.join(buildDir, 'sidebar'),
  secretKeysFile: path.join(baseDir, '.data', 'secret-keys.json'),
};

/** A configured path: relative ones from the repository (sources) or the working directory (a build). */
export function resolveConfiguredPath(value: string | undefined, fallback: string): string {
  return value === undefined ? fallback : path.resolve(baseDir, value);
}

import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of the bundle when running a build (`npm run build` writes main.js with the files it
 * reads at run time beside it); null when running sources (tsx, tests), which read them from the
 * repository.
 */
export const buildDir: string | null = import.meta.url.endsWith('.ts')
  ? null
  : path.dirname(fileURLToPath(import.meta.url));

/** The repository root, found from this file; meaningful only when running sources. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** What relative paths in the configuration are resolved against: the repository from sources, the working directory when built. */
export const baseDir = buildDir === null ? repoRoot : process.cwd();

export const prismaDir = path.join(repoRoot, 'prisma');
export const schemaPath = path.join(prismaDir, 'schema.prisma');
/** The migrations a build carries (`<build>/migrations`), else the repository's. */
export const migrationsDir =
  buildDir === null ? path.join(prismaDir, 'migrations') : path.join(buildDir, 'migrations');
export const defaultPgliteDir = path.join(baseDir, '.data', 'pglite');

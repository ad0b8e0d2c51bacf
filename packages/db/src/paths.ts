import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file so it holds whatever the working directory is. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export const prismaDir = path.join(repoRoot, 'prisma');
export const schemaPath = path.join(prismaDir, 'schema.prisma');
export const migrationsDir = path.join(prismaDir, 'migrations');
export const defaultPgliteDir = path.join(repoRoot, '.data', 'pglite');

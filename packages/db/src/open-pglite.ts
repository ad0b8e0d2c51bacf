import { PGlite } from '@electric-sql/pglite';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { closeOnce, type TPgliteDatabase } from './database';
import { lockDataDirectory } from './data-directory-lock';
import { ensurePgliteDataDir } from './make-pglite-dir';
import { newStatementCount } from './statement-count';
import { withTurns } from './statements-first';
import { PrismaClient } from './generated/client';
import { applyMigrations } from './migrations/apply-migrations';
import type { MigrationFile } from './migrations/read-migrations';

export async function openPglite(
  dataDir: string,
  migrations: MigrationFile[],
): Promise<TPgliteDatabase> {
  // PGlite creates its own folder but not the parents.
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const lock = lockDataDirectory(dataDir);
  let pglite: PGlite | undefined;
  try {
    await ensurePgliteDataDir(dataDir);
    pglite = await PGlite.create(dataDir).catch((error: unknown) => {
      // A folder damaged (e.g. by two processes at once) fails with a bare "RuntimeError: Aborted()".
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`Could not open the PGlite data folder ${dataDir}: ${reason}`, {
        cause: error,
      });
    });
    const statements = newStatementCount();
    const db = withTurns(pglite, statements);
    const appliedMigrations = await applyMigrations(
      (work) =>
        db.transaction((tx) =>
          work({
            exec: async (sql) => {
              await tx.exec(sql);
            },
            query: async <TRow>(sql: string, params?: unknown[]) =>
              (await tx.query<TRow>(sql, params)).rows,
          }),
        ),
      migrations,
    );
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(db) });
    return {
      backend: 'pglite',
      prisma,
      pglite: db,
      dataDir,
      appliedMigrations,
      statements,
      ...closeOnce(async () => {
        try {
          await prisma.$disconnect();
          await db.close();
        } finally {
          lock.release();
        }
      }),
    };
  } catch (error) {
    await pglite?.close().catch(() => {});
    lock.release();
    throw error;
  }
}

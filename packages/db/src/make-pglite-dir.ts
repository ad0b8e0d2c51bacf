// A new PGlite data folder is made whole or not at all: its cluster is created in a sibling folder
// (`<dataDir>.making`) and renamed into place once complete, so a process killed while it was being
// made (it takes seconds, minutes on a busy machine) leaves no half-made folder that a later start
// would take for a database. The caller holds the folder's lock.
import { PGlite } from '@electric-sql/pglite';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';

/** Where a folder is made before it is renamed into place; its presence means a making was cut short. */
export function makingDirOf(dataDir: string): string {
  return `${dataDir}.making`;
}

/** Whether the folder holds a database (made whole, by this module or before it). */
export function isMadeDataDir(dataDir: string): boolean {
  return existsSync(dataDir) && readdirSync(dataDir).length > 0;
}

/** Makes the folder's cluster unless it holds one; what a cut-short making left is made again. */
export async function ensurePgliteDataDir(dataDir: string): Promise<void> {
  if (isMadeDataDir(dataDir)) return;
  const making = makingDirOf(dataDir);
  rmSync(making, { recursive: true, force: true });
  const pglite = await PGlite.create(making);
  await pglite.close();
  rmSync(dataDir, { recursive: true, force: true });
  renameSync(making, dataDir);
}

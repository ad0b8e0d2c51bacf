// `npm run reset`: the next `npm start` is a new demo. Refused while any part of the demo runs;
// the locks are held while the data goes, so nothing starts on half of it.
import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { lockDemoData } from './demo-data-locks';
import { shown, type TDemoDataPaths } from './demo-data-paths';

/** Deletes the demo's data (the whole data folder, and parts configured outside it); says what went. */
export function resetDemoData(root: string, paths: TDemoDataPaths): string[] {
  const parts = [
    paths.incidentFile,
    paths.zendeskFile,
    ...(paths.connectorDb.kind === 'pglite' ? [paths.connectorDb.dir] : []),
  ];
  const outside = parts.filter((part) => !isInside(paths.dataDir, part) && existsSync(part));
  const hadDataDir = existsSync(paths.dataDir) && readdirSync(paths.dataDir).length > 0;
  const locks = lockDemoData(paths);
  try {
    for (const part of outside) rmSync(part, { recursive: true, force: true });
    removeAllBut(paths.dataDir, new Set(locks.lockPaths));
  } finally {
    locks.release();
  }
  for (const dir of new Set([...locks.lockPaths.map((lock) => path.dirname(lock)), paths.dataDir]))
    removeIfEmpty(dir, paths.dataDir);
  const removed = [
    ...(hadDataDir ? [`${shown(root, paths.dataDir)}/`] : []),
    ...outside.map((p) => shown(root, p)),
  ];
  return removed;
}

function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** Empties `dir` except the files in `keep` (the locks held meanwhile) and the folders holding them. */
function removeAllBut(dir: string, keep: Set<string>): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (keep.has(full)) continue;
    if (entry.isDirectory() && [...keep].some((held) => isInside(full, held)))
      removeAllBut(full, keep);
    else rmSync(full, { recursive: true, force: true });
  }
}

/** Removes the folders left empty once the locks are gone, up to and including the data folder. */
function removeIfEmpty(dir: string, dataDir: string): void {
  let current = dir;
  while (isInside(dataDir, current) || current === dataDir) {
    if (!existsSync(current) || readdirSync(current).length > 0) return;
    rmdirSync(current);
    if (current === dataDir) return;
    current = path.dirname(current);
  }
}

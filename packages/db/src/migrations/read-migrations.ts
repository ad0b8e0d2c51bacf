import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type MigrationFile = {
  /** Folder name, e.g. `20261121203000_init`; the order migrations run in. */
  name: string;
  sql: string;
  /** sha256 hex of the file's bytes, as Prisma records it in `_prisma_migrations.checksum`. */
  checksum: string;
};

/** Every `<dir>/*\/migration.sql`, sorted by folder name as Prisma sorts them. */
export function readMigrations(dir: string): MigrationFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .flatMap((name) => {
      const file = path.join(dir, name, 'migration.sql');
      if (!existsSync(file))
        throw new Error(`migration folder ${path.join(dir, name)} has no migration.sql`);
      const bytes = readFileSync(file);
      return [
        {
          name,
          sql: bytes.toString('utf8'),
          checksum: createHash('sha256').update(bytes).digest('hex'),
        },
      ];
    });
}

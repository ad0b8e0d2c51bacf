// Creates prisma/migrations/<timestamp>_<name>/migration.sql without network: Prisma's schema engine,
// compiled to WebAssembly, diffs the existing migrations (replayed on an in-memory PGlite shadow
// database) against prisma/schema.prisma, producing the SQL `prisma migrate dev` would.
import { createMigration } from './generate-migration';

const name = process.argv.slice(2).join(' ').trim();
if (!name) {
  console.error('usage: npm run db:migration -- <name>');
  process.exit(2);
}

try {
  const result = await createMigration({ name });
  if (result.created) {
    console.log(`created ${result.path}`);
  } else {
    console.log('no changes: the schema matches the migrations');
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

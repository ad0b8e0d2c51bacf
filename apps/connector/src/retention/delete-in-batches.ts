// One retention rule: which rows of a table are expired at a pass's start, deleted a bounded batch
// at a time. Each batch takes the oldest expired rows FOR UPDATE SKIP LOCKED, so instances running
// the same rule at once on one PostgreSQL delete different rows and never wait on each other (on
// PGlite, with its one connection, the statements simply take turns).
import type { TDatabase } from '@incident-desk/db';

export interface RetentionRule {
  /** The table, as named in SQL (a constant, never input). */
  table: string;
  /** Its primary key columns. */
  key: readonly string[];
  /** The indexed column the expired rows are taken in the order of. */
  orderBy: string;
  /** SQL condition on the table's row `t`, true for expired rows: `$1` is the cutoff. */
  expired: string;
  /** The cutoff (`$1`) of a pass that starts at `now`. */
  cutoff(now: Date): Date;
}

function batchStatement(rule: RetentionRule): string {
  const key = rule.key.join(', ');
  const picked = rule.key.map((column) => `t.${column}`).join(', ');
  return `DELETE FROM ${rule.table} WHERE (${key}) IN (
    SELECT ${picked} FROM ${rule.table} t
    WHERE ${rule.expired}
    ORDER BY t.${rule.orderBy}
    LIMIT $2
    FOR UPDATE OF t SKIP LOCKED)`;
}

/** Deletes at most `batchSize` expired rows; how many it deleted. */
export async function deleteBatch(
  db: TDatabase,
  rule: RetentionRule,
  cutoff: Date,
  batchSize: number,
): Promise<number> {
  return db.prisma.$executeRawUnsafe(batchStatement(rule), cutoff, batchSize);
}

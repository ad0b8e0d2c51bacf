// PGlite runs no autovacuum, so nothing ever analyzes pg-boss's job table there: the planner
// counts a row or so where hundreds wait, and plans the fetch of a key_strict_fifo queue as a
// nested loop that compares every waiting job with every key's head. One account with a long
// backlog in one key (a burst of events for one incident) then makes every fetch, for every
// account, cost its backlog times the number of keys, and the one connection spends on fetching
// what it should spend on the jobs. Analyzed, the planner knows the rows and that fetch stays
// cheap (bench/tenants.bench.ts, phase B). So on PGlite the job table is vacuumed and analyzed on
// a timer, as autovacuum does on PostgreSQL.
import { defaultJobQueueSchema, type TDatabase } from '@incident-desk/db';
import { startPeriodicPass, type PeriodicPass } from './periodic-pass';

/** How often the job table is vacuumed and analyzed on PGlite. */
const PGLITE_JOB_TABLE_VACUUM_INTERVAL_MS = 30_000;

export interface PgliteJobTableVacuumOptions {
  db: TDatabase;
  /** Default 30 s, the first pass too. */
  intervalMs?: number;
  onError(error: unknown): void;
}

/** Vacuums and analyzes pg-boss's job table on a timer on PGlite; undefined on PostgreSQL. */
export function startPgliteJobTableVacuum(
  options: PgliteJobTableVacuumOptions,
): PeriodicPass<void> | undefined {
  const { db } = options;
  if (db.backend !== 'pglite') return undefined;
  // the partitioned parent: VACUUM and ANALYZE cover every queue's partition
  const table = `"${defaultJobQueueSchema(db)}".job`;
  const intervalMs = options.intervalMs ?? PGLITE_JOB_TABLE_VACUUM_INTERVAL_MS;
  return startPeriodicPass<void>({
    pass: async () => {
      await db.pglite.exec(`VACUUM (ANALYZE) ${table}`);
    },
    empty: undefined,
    firstPassDelayMs: intervalMs,
    intervalMs,
    onError: options.onError,
  });
}

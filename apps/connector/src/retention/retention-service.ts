// Retention, run by every instance that runs workers: a pass shortly after start, then one every
// RETENTION_INTERVAL_MS. Instances may run passes at the same time (batches skip each other's rows).
// A pass that deleted something is logged with its counts per table and counted in
// incident_desk_retention_deleted_rows_total; a failed pass is logged and the next one tries again.
import { capabilitiesOf, defaultJobQueueSchema, type TDatabase } from '@incident-desk/db';
import type { Logger } from '../log';
import { startPeriodicPass } from '../worker';
import { retentionRules } from './retention-rules';
import { runRetentionPass, type DeletedRows } from './retention-pass';
import type { RetentionSettings } from './retention-settings';

export const RETENTION_INTERVAL_MS = 10 * 60 * 1000;
const FIRST_PASS_DELAY_MS = 60 * 1000;

export interface RetentionOptions {
  db: TDatabase;
  settings: RetentionSettings;
  logger: Logger;
  /** Told how many rows of a table a pass deleted. */
  onDeleted?: (table: string, rows: number) => void;
  intervalMs?: number;
  firstPassDelayMs?: number;
  /** Default 1000 on PostgreSQL, 200 on PGlite (one connection: short statements). */
  batchSize?: number;
  /** Default 10 ms on PostgreSQL, 50 ms on PGlite. */
  pauseMs?: number;
  now?: () => Date;
  /** pg-boss's schema; default defaultJobQueueSchema(db). */
  jobSchema?: string;
}

export interface RetentionService {
  /** One pass now (waits for a pass already running first). */
  runOnce(): Promise<DeletedRows>;
  /** No pass starts after this; a running one ends after its current batch. */
  stop(): Promise<void>;
}

export function startRetention(options: RetentionOptions): RetentionService {
  const { db, logger } = options;
  const single = capabilitiesOf(db).connections === 'single';
  const rules = retentionRules(options.settings, options.jobSchema ?? defaultJobQueueSchema(db));
  const now = options.now ?? (() => new Date());
  async function pass(stopped: () => boolean): Promise<DeletedRows> {
    const started = performance.now();
    const deleted = await runRetentionPass(db, {
      rules,
      now: now(),
      batchSize: options.batchSize ?? (single ? 200 : 1_000),
      pauseMs: options.pauseMs ?? (single ? 50 : 10),
      stopped,
    });
    const tables = Object.entries(deleted);
    for (const [table, rows] of tables) options.onDeleted?.(table, rows);
    if (tables.length > 0)
      logger.info('retention: expired rows deleted', {
        ...deleted,
        durationMs: Math.round(performance.now() - started),
      });
    return deleted;
  }

  return startPeriodicPass<DeletedRows>({
    pass,
    empty: {},
    firstPassDelayMs: options.firstPassDelayMs ?? FIRST_PASS_DELAY_MS,
    intervalMs: options.intervalMs ?? RETENTION_INTERVAL_MS,
    onError: (error) => logger.warn('retention pass failed; the next one tries again', { error }),
  });
}

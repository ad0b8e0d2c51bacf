// One retention pass: every rule's expired rows (as of the pass's start) deleted in batches, the
// rules taking turns a batch each so a large backlog in one table holds none of the others back.
// Between batches the pass yields, so on PGlite's one connection the receivers and workers get
// their statements in; a stop is honoured between batches.
import { setTimeout as sleep } from 'node:timers/promises';
import type { TDatabase } from '@incident-desk/db';
import { deleteBatch, type RetentionRule } from './delete-in-batches';

export interface RetentionPassOptions {
  rules: readonly RetentionRule[];
  now: Date;
  /** Most rows one statement deletes. */
  batchSize: number;
  /** Wait between batches, in milliseconds. */
  pauseMs: number;
  /** Checked between batches: true ends the pass early. */
  stopped?: () => boolean;
  /** Told of every batch (tests count them). */
  onBatch?: (table: string, deleted: number) => void;
}

/** Rows deleted per table (tables with none are left out). */
export type DeletedRows = Record<string, number>;

export async function runRetentionPass(
  db: TDatabase,
  options: RetentionPassOptions,
): Promise<DeletedRows> {
  const deleted: DeletedRows = {};
  let pending = options.rules.map((rule) => ({ rule, cutoff: rule.cutoff(options.now) }));
  while (pending.length > 0 && !options.stopped?.()) {
    const unfinished: typeof pending = [];
    for (const entry of pending) {
      if (options.stopped?.()) return deleted;
      const count = await deleteBatch(db, entry.rule, entry.cutoff, options.batchSize);
      options.onBatch?.(entry.rule.table, count);
      if (count > 0) deleted[entry.rule.table] = (deleted[entry.rule.table] ?? 0) + count;
      if (count >= options.batchSize) unfinished.push(entry);
      await sleep(options.pauseMs);
    }
    pending = unfinished;
  }
  return deleted;
}

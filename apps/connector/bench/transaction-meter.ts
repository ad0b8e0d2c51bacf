// Times every inbox transaction, and the statements inside it, by wrapping the database handle the
// inbox uses (the pool's connect on PostgreSQL, transaction() on PGlite). Benchmark-only: it
// shows whether the one-transaction-at-a-time flush limits throughput (busy share near 100 %)
// and which statement the time goes to.
import { performance } from 'node:perf_hooks';
import type { Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import type { TDatabase } from '@incident-desk/db';

export type StatementKind = 'begin' | 'receipts' | 'jobs' | 'commit' | 'other';

export class TransactionMeter {
  /** Figures count only while a measured run is on. */
  measuring = false;
  count = 0;
  busyMs = 0;
  statementMs: Record<StatementKind, number> = this.emptyStatements();

  record(ms: number): void {
    if (!this.measuring) return;
    this.count += 1;
    this.busyMs += ms;
  }

  recordStatement(text: string, ms: number): void {
    if (!this.measuring) return;
    this.statementMs[classify(text)] += ms;
  }

  private emptyStatements(): Record<StatementKind, number> {
    return { begin: 0, receipts: 0, jobs: 0, commit: 0, other: 0 };
  }
}

function classify(text: string): StatementKind {
  const start = text.trimStart().slice(0, 8).toUpperCase();
  if (start.startsWith('BEGIN')) return 'begin';
  if (start.startsWith('COMMIT')) return 'commit';
  if (text.includes('webhook_receipt')) return 'receipts';
  // The only other statement the inbox runs in its transaction is pg-boss's insert.
  return text.includes('job') ? 'jobs' : 'other';
}

async function timed<T>(meter: TransactionMeter, text: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    meter.recordStatement(text, performance.now() - started);
  }
}

export function meterTransactions(db: TDatabase): TransactionMeter {
  const meter = new TransactionMeter();
  if (db.backend === 'pglite') {
    const pglite = db.pglite;
    const transaction = pglite.transaction.bind(pglite);
    pglite.transaction = (async <T>(callback: (tx: Transaction) => Promise<T>) => {
      const started = performance.now();
      try {
        return await transaction((tx) => {
          const query = tx.query.bind(tx);
          tx.query = ((text: string, ...rest: unknown[]) =>
            timed(meter, text, () =>
              (query as (text: string, ...rest: unknown[]) => Promise<unknown>)(text, ...rest),
            )) as Transaction['query'];
          return callback(tx);
        });
      } finally {
        meter.record(performance.now() - started);
      }
    }) as typeof pglite.transaction;
    return meter;
  }

  type PromiseQuery = (text: string, values?: unknown[]) => Promise<unknown>;
  const pool = db.pool;
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  (pool as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
    const client = await connect();
    const started = performance.now();
    const patched = client as unknown as { query: PromiseQuery; release: typeof client.release };
    const query = patched.query;
    const release = patched.release;
    patched.query = (text, values) => timed(meter, text, () => query.call(client, text, values));
    patched.release = (error?: Error | boolean) => {
      meter.record(performance.now() - started);
      // Pooled clients are reused: give back the originals so wrappers never stack.
      patched.query = query;
      patched.release = release;
      return release.call(client, error);
    };
    return client;
  };
  return meter;
}

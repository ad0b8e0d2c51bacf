// How many statements a database was sent: an integer bumped once per statement, read by the
// connector's metrics (database_statements_total) and the throughput benchmark (statements per
// event). On PostgreSQL every pooled client's query is counted (the connector's pool from its
// first connection, pg-boss's from each client's first checkout after the queue started); on
// PGlite every query and exec, and a transaction's BEGIN and its COMMIT or ROLLBACK with the
// statements inside it (statements-first.ts, which every caller goes through). A script of several
// statements sent in one call (an exec, a multi-statement text) counts once: one round trip.
import type pg from 'pg';

export interface StatementCount {
  /** Statements sent so far. */
  sent: number;
}

export function newStatementCount(): StatementCount {
  return { sent: 0 };
}

type Queryable = { query: (...args: never[]) => unknown };

const counted = new WeakSet<object>();

/** Counts each call of the client's query from now on (once per client, however often called). */
export function countQueries(client: Queryable, count: StatementCount): void {
  if (counted.has(client)) return;
  counted.add(client);
  const query = client.query;
  client.query = function (this: unknown, ...args: never[]) {
    count.sent += 1;
    return query.apply(this, args);
  } as Queryable['query'];
}

/**
 * Counts the statements of a pool this package does not create (pg-boss's): each client from its
 * next checkout on. A client's statements before that are not counted: those of the queue's start.
 */
export function countPoolQueries(pool: pg.Pool, count: StatementCount): void {
  pool.on('acquire', (client) => countQueries(client, count));
}

// PGlite is one connection: every statement of the process waits its turn, and a worker's backlog
// of statements would hold a webhook's durable write (its sender waits, and Zendesk drops a delivery
// not answered within 12 s) for as long as it lasts. Statements issued inside `withStatementsFirst`
// take the next turn instead: the connection is handed to them before any statement waiting
// without it. A transaction is one turn, as PGlite runs it. PostgreSQL's pool needs none of this.
// Every caller goes through here, so the statements are counted here too (statement-count.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { newStatementCount, type StatementCount } from './statement-count';

const first = new AsyncLocalStorage<true>();

/** How long statements may follow one another before the event loop gets a pass. */
const SLICE_MS = 5;

/** Runs `work`, whose statements on the embedded database go before those waiting without it. */
export function withStatementsFirst<T>(work: () => Promise<T>): Promise<T> {
  return first.run(true, work);
}

/**
 * The statements of a transaction counted: those sent through `tx` (a transaction's BEGIN and its
 * end are counted by the caller).
 */
function countedTransaction(tx: Transaction, count: StatementCount): Transaction {
  for (const name of ['query', 'exec', 'sql'] as const) {
    const method = tx[name] as (...args: unknown[]) => Promise<unknown>;
    (tx as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      count.sent += 1;
      return method(...args);
    };
  }
  return tx;
}

/**
 * The instance every caller uses: its query, exec and transaction take turns, the marked first,
 * and are counted in `count`.
 */
export function withTurns(pglite: PGlite, count: StatementCount = newStatementCount()): PGlite {
  const waiting = { first: [] as (() => void)[], others: [] as (() => void)[] };
  let busy = false;
  async function turn<T>(statement: () => Promise<T>): Promise<T> {
    if (busy)
      await new Promise<void>((resolve) =>
        (first.getStore() ? waiting.first : waiting.others).push(resolve),
      );
    busy = true;
    try {
      return await statement();
    } finally {
      handOn();
    }
  }
  // PGlite runs a statement on this thread: handed on at once for ever, a backlog would run
  // statement after statement without the event loop reading a socket, so a webhook could not even
  // arrive to claim its turn. Once a slice of SLICE_MS has gone by, the next turn is chosen after
  // one pass of the event loop (a pass per statement would slow every backlog down).
  let sliceStart = performance.now();
  function handOn(): void {
    if (waiting.first.length === 0 && waiting.others.length === 0) {
      busy = false;
      return;
    }
    const pick = () => {
      const next = waiting.first.shift() ?? waiting.others.shift();
      if (next) next();
      else busy = false;
    };
    if (performance.now() - sliceStart < SLICE_MS) return pick();
    setImmediate(() => {
      sliceStart = performance.now();
      pick();
    });
  }

  const taking = new Set<PropertyKey>(['query', 'exec', 'transaction']);
  // Each taking method wrapped once. One assigned through the instance (a benchmark's meter) is
  // kept as it is: it calls the wrapped one it read before, which takes the turn.
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(pglite, {
    get(target, property) {
      const known = wrapped.get(property);
      if (known !== undefined) return known;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (!taking.has(property)) return method;
      const inTurn =
        property === 'transaction'
          ? (callback: (tx: Transaction) => Promise<unknown>, ...rest: unknown[]) => {
              // its BEGIN and its COMMIT (or ROLLBACK), and each statement inside
              count.sent += 2;
              return turn(
                () =>
                  method(
                    (tx: Transaction) => callback(countedTransaction(tx, count)),
                    ...rest,
                  ) as Promise<unknown>,
              );
            }
          : (...args: unknown[]) => {
              count.sent += 1;
              return turn(() => method(...args) as Promise<unknown>);
            };
      wrapped.set(property, inTurn);
      return inTurn;
    },
    set(target, property, value: unknown) {
      if (!taking.has(property)) return Reflect.set(target, property, value, target);
      wrapped.set(property, value);
      return true;
    },
  });
}

/**
 * True when the database could not be reached or dropped the connection (a restart, a failover, a
 * network fault): the same statement may succeed once it is back. A refused statement (a
 * constraint, a bad value) is not unavailability. Reads Prisma's codes, the driver adapter's
 * error kinds, SQLSTATE classes 08 (connection exception) and 57P01-57P03 (shutdown, starting up)
 * from pg and PGlite, and the socket errors underneath, down the `cause` chain.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; isObject(current) && depth < 8; depth += 1) {
    if (describesUnavailability(current)) return true;
    const adapterCause = driverAdapterCause(current);
    if (adapterCause && describesUnavailability(adapterCause)) return true;
    current = current.cause;
  }
  return false;
}

/** Prisma: P1001 can't reach, P1002 timed out reaching, P1008 operation timed out, P1017 closed. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017']);
/** What @prisma/adapter-pg and the PGlite adapter call a lost or refused connection. */
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);
/** 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting up). */
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND']);
/** node-postgres's own words when the server goes away mid-query. */
const PG_LOST = /^Connection terminated( unexpectedly| due to connection timeout)?$/;

function describesUnavailability(error: Record<string, unknown>): boolean {
  const code = typeof error.code === 'string' ? error.code : undefined;
  const state = typeof error.originalCode === 'string' ? error.originalCode : code;
  if (code && (PRISMA_CODES.has(code) || SOCKET_CODES.has(code))) return true;
  if (state && (SHUTDOWN_STATES.has(state) || /^08[0-9A-Z]{3}$/.test(state))) return true;
  if (typeof error.kind === 'string' && ADAPTER_KINDS.has(error.kind)) return true;
  return typeof error.message === 'string' && PG_LOST.test(error.message);
}

/** Prisma keeps the adapter's error in `meta.driverAdapterError.cause`. */
function driverAdapterCause(error: Record<string, unknown>): Record<string, unknown> | undefined {
  const meta = error.meta;
  if (!isObject(meta) || !isObject(meta.driverAdapterError)) return undefined;
  const cause = meta.driverAdapterError.cause;
  return isObject(cause) ? cause : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

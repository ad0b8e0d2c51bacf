// The connector's HTTP server with limits on what one client can hold: a request's headers and
// the whole request (body included) must arrive in time, idle keep-alive sockets close, and the
// connections open at once are capped in all and per client address. Without them, a thousand
// connections dripping a byte every few seconds held the receivers for minutes, and one client
// could hold every connection slot while health probes failed. Refusals are counted, and logged
// once per burst with how many there were, not once per socket.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { RequestListener } from 'node:http';

export interface HttpServerLimits {
  /** A request's headers must be complete within this (answered 408, then closed). */
  headersTimeoutMs: number;
  /** The whole request, webhook bodies included, must be received within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection closes after this. */
  keepAliveTimeoutMs: number;
  /** Connections open at once; more are refused (closed at once). */
  maxConnections: number;
  /** Connections open at once from one client address; 0 = no per-client cap (e.g. behind a proxy). */
  maxConnectionsPerClient: number;
}

export type ConnectionRefusal = 'total_cap' | 'client_cap';

export interface HttpServerEvents {
  log: (message: string) => void;
  /** Told of every refused connection (a counter). */
  onRefused?: (reason: ConnectionRefusal) => void;
}

/** One log line per burst of refusals of one kind (and client): the first, then a count. */
const REFUSAL_LOG_WINDOW_MS = 10_000;

// Every legitimate sender is quick: Zendesk gives up on a webhook after 12 s, the incident service
// sends small bodies, and the sidebar and admin pages send small JSON. A client that takes longer is
// holding a connection, not sending a request.
export const DEFAULT_HTTP_LIMITS: HttpServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_000,
  // a fifth of the slots: one client cannot starve the probes and every other sender
  maxConnectionsPerClient: 200,
};

/** Logs the first refusal of a burst at once and how many followed when the burst ends. */
function burstLogger(log: (message: string) => void): (key: string, message: string) => void {
  const bursts = new Map<string, { more: number; message: string }>();
  return (key, message) => {
    const burst = bursts.get(key);
    if (burst) {
      burst.more += 1;
      return;
    }
    log(message);
    const started = { more: 0, message };
    bursts.set(key, started);
    setTimeout(() => {
      bursts.delete(key);
      if (started.more > 0)
        log(`${started.message} (and ${started.more} more in ${REFUSAL_LOG_WINDOW_MS / 1000} s)`);
    }, REFUSAL_LOG_WINDOW_MS).unref();
  };
}

export function createHttpServer(
  listener: RequestListener,
  limits: HttpServerLimits,
  events: HttpServerEvents,
): http.Server {
  const logBurst = burstLogger(events.log);
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node looks for requests past their timeouts this often (default 30 s, which let a
      // 10 s limit hold a socket for 40 s).
      connectionsCheckingInterval: Math.max(
        50,
        Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4)),
      ),
    },
    listener,
  );
  server.maxConnections = limits.maxConnections;
  server.on('drop', (data?: { remoteAddress?: string }) => {
    events.onRefused?.('total_cap');
    logBurst(
      'total',
      `http: connection refused: ${limits.maxConnections} connections open (first from ${data?.remoteAddress ?? 'unknown'})`,
    );
  });
  if (limits.maxConnectionsPerClient > 0)
    capPerClient(server, limits.maxConnectionsPerClient, (client) => {
      events.onRefused?.('client_cap');
      logBurst(
        `client:${client}`,
        `http: connection refused: ${limits.maxConnectionsPerClient} connections open from ${client}`,
      );
    });
  return server;
}

function capPerClient(server: http.Server, cap: number, refuse: (client: string) => void): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const client = socket.remoteAddress ?? 'unknown';
    const count = (open.get(client) ?? 0) + 1;
    if (count > cap) {
      refuse(client);
      socket.destroy();
      return;
    }
    open.set(client, count);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left <= 0) open.delete(client);
      else open.set(client, left);
    });
  });
}

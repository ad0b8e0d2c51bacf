// The connector's HTTP server with limits on what one client can hold: a request's headers and
// the whole request (body included) must arrive in time, idle keep-alive sockets close, and the
// connections open at once are capped in all and per client address. Without them, a thousand
// connections dripping a byte every few seconds held the receivers for minutes (issue 14).
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

// Node's own figures for the timeouts, but enforced (Node looked only every 30 s). Tighter
// defaults (10 s / 30 s) made the chaos soak lose Zendesk deliveries right after connector
// restarts on a loaded machine (issue 14 report): tighten them per deployment.
// Every legitimate sender is quick: Zendesk gives up on a webhook after 12 s, the incident service
// sends small bodies, and the sidebar and admin pages send small JSON. A client that takes longer is
// holding a connection, not sending a request.
export const DEFAULT_HTTP_LIMITS: HttpServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_000,
  maxConnectionsPerClient: 0,
};

export function createHttpServer(
  listener: RequestListener,
  limits: HttpServerLimits,
  log: (message: string) => void,
): http.Server {
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
    log(
      `http: connection refused: ${limits.maxConnections} connections open (from ${data?.remoteAddress ?? 'unknown'})`,
    );
  });
  if (limits.maxConnectionsPerClient > 0) capPerClient(server, limits.maxConnectionsPerClient, log);
  return server;
}

function capPerClient(server: http.Server, cap: number, log: (message: string) => void): void {
  const open = new Map<string, number>();
  const refusedRecently = new Set<string>();
  server.on('connection', (socket: Socket) => {
    const client = socket.remoteAddress ?? 'unknown';
    const count = (open.get(client) ?? 0) + 1;
    if (count > cap) {
      // One line per client and burst, not one per refused socket.
      if (!refusedRecently.has(client)) {
        refusedRecently.add(client);
        setTimeout(() => refusedRecently.delete(client), 10_000).unref();
        log(`http: connection refused: ${cap} connections open from ${client}`);
      }
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

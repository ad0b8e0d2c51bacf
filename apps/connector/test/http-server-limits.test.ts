// Slow clients cannot hold the receivers: sockets dripping their headers or a
// webhook body are closed once the configured timeout passes, connections are capped in all and
// per client, and a normal delivery is answered meanwhile.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { signZendeskWebhook } from '@incident-desk/zendesk-api';
import { loadConfig } from '../src/config/config';
import { errorHandler } from '../src/http/app-error';
import {
  createHttpServer,
  type ConnectionRefusal,
  type HttpServerLimits,
} from '../src/http/http-server';
import { ticketingWebhookRouter } from '../src/http/ticketing-webhook';

const ACCOUNT = '00000000-0000-4000-8000-000000000001';
const SECRET = 'zendesk-webhook-secret';

/**
 * Node's own limits, which hold a connection far longer than the test's: a connection closed
 * before them was closed by the configured limit, however slow the machine.
 */
const NODE_DEFAULTS = {
  headersTimeoutMs: 60_000,
  requestTimeoutMs: 300_000,
  keepAliveTimeoutMs: 5_000,
};

const LIMITS: HttpServerLimits = {
  headersTimeoutMs: 400,
  requestTimeoutMs: 900,
  keepAliveTimeoutMs: 300,
  maxConnections: 100,
  maxConnectionsPerClient: 0,
};

let stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.map((stop) => stop()));
  stops = [];
});

async function serve(
  limits: HttpServerLimits,
  logged: string[] = [],
  refused: ConnectionRefusal[] = [],
) {
  const app = express();
  app.use(
    ticketingWebhookRouter({
      inbox: { accept: async () => ({ status: 'accepted', receiptId: 'r1' }) },
      accounts: {
        find: async (id) => (id === ACCOUNT ? { accountId: ACCOUNT, secrets: [SECRET] } : null),
      },
    }),
  );
  app.use(errorHandler);
  const server = createHttpServer(app, limits, {
    log: (line) => logged.push(line),
    onRefused: (reason) => refused.push(reason),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const sockets = new Set<net.Socket>();
  stops.push(async () => {
    for (const socket of sockets) socket.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** A raw connection; resolves `closed` with how long after opening the server closed it. */
  function open() {
    const socket = net.connect(port, '127.0.0.1');
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    const opened = Date.now();
    const closed = new Promise<number>((resolve) =>
      socket.once('close', () => resolve(Date.now() - opened)),
    );
    const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    return { socket, closed, connected };
  }

  /** Writes one byte every `everyMs` until the socket closes. */
  function drip(socket: net.Socket, everyMs: number) {
    const timer = setInterval(() => {
      if (!socket.destroyed) socket.write('a');
    }, everyMs);
    socket.once('close', () => clearInterval(timer));
  }

  async function deliver(): Promise<number> {
    const raw = JSON.stringify({ kind: 'report', ticketId: 7, mode: 'takedown' });
    const response = await fetch(`http://127.0.0.1:${port}/ticketing/webhook?account=${ACCOUNT}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        connection: 'close',
        ...signZendeskWebhook({ secret: SECRET, rawBody: raw }).headers,
      },
      body: raw,
    });
    await response.arrayBuffer();
    return response.status;
  }

  return { open, drip, deliver };
}

describe('the HTTP server limits', () => {
  it('closes sockets dripping headers or a webhook body once their timeout passes, and answers a normal delivery meanwhile', async () => {
    const { open, drip, deliver } = await serve(LIMITS);
    const slowHeaders = [open(), open(), open()];
    for (const { socket, connected } of slowHeaders) {
      await connected;
      socket.write(`POST /ticketing/webhook?account=${ACCOUNT} HTTP/1.1\r\nHost: x\r\nX-Drip: `);
      drip(socket, 100);
    }
    const slowBodies = [open(), open()];
    for (const { socket, connected } of slowBodies) {
      await connected;
      socket.write(
        `POST /ticketing/webhook?account=${ACCOUNT} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      );
      drip(socket, 100);
    }

    expect(await deliver()).toBe(200);

    const headerTimes = await Promise.all(slowHeaders.map((s) => s.closed));
    const bodyTimes = await Promise.all(slowBodies.map((s) => s.closed));
    for (const ms of headerTimes) {
      expect(ms).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs - 50);
      expect(ms).toBeLessThan(NODE_DEFAULTS.headersTimeoutMs);
    }
    for (const ms of bodyTimes) {
      expect(ms).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 50);
      expect(ms).toBeLessThan(NODE_DEFAULTS.requestTimeoutMs);
    }
    expect(await deliver()).toBe(200);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const { open } = await serve(LIMITS);
    const idle = open();
    await idle.connected;
    idle.socket.write('GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n');
    const ms = await idle.closed;
    expect(ms).toBeGreaterThanOrEqual(LIMITS.keepAliveTimeoutMs - 50);
    expect(ms).toBeLessThan(NODE_DEFAULTS.keepAliveTimeoutMs);
  });

  it('refuses connections past the per-client cap, and serves the client again once it closed some', async () => {
    const logged: string[] = [];
    const refused: ConnectionRefusal[] = [];
    const { open, deliver } = await serve(
      { ...LIMITS, maxConnectionsPerClient: 3 },
      logged,
      refused,
    );
    const held = [open(), open(), open()];
    await Promise.all(held.map((h) => h.connected));
    const extra = open();
    await extra.closed;
    expect(refused).toEqual(['client_cap']);
    expect(logged.some((line) => /3 connections open from/.test(line))).toBe(true);

    for (const h of held) h.socket.destroy();
    await Promise.all(held.map((h) => h.closed));
    expect(await deliver()).toBe(200);
  });

  it('refuses connections past the total cap: each counted, one log line for the burst', async () => {
    const logged: string[] = [];
    const refused: ConnectionRefusal[] = [];
    const { open, deliver } = await serve({ ...LIMITS, maxConnections: 2 }, logged, refused);
    const held = [open(), open()];
    await Promise.all(held.map((h) => h.connected));
    const burst = Array.from({ length: 20 }, () => open());
    await Promise.all(burst.map((extra) => extra.closed));
    expect(refused).toEqual(burst.map(() => 'total_cap'));
    expect(logged.filter((line) => /connection refused/.test(line))).toHaveLength(1);
    for (const h of held) h.socket.destroy();
    await Promise.all(held.map((h) => h.closed));
    expect(await deliver()).toBe(200);
  });

  it('reads the limits from the environment, with defaults, and refuses a headers timeout longer than the request timeout', () => {
    const env = { NODE_ENV: 'test', SECRETS_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}` };
    expect(loadConfig(env).http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 1_000,
      maxConnectionsPerClient: 200,
    });
    // behind a proxy every connection is the proxy's: no per-client cap unless one is set
    expect(loadConfig({ ...env, CONNECTOR_TRUST_PROXY: '1' }).http.maxConnectionsPerClient).toBe(0);
    expect(
      loadConfig({
        ...env,
        HTTP_HEADERS_TIMEOUT_MS: '2000',
        HTTP_REQUEST_TIMEOUT_MS: '5000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
        HTTP_MAX_CONNECTIONS: '10',
        HTTP_MAX_CONNECTIONS_PER_CLIENT: '5',
      }).http,
    ).toEqual({
      headersTimeoutMs: 2_000,
      requestTimeoutMs: 5_000,
      keepAliveTimeoutMs: 1_000,
      maxConnections: 10,
      maxConnectionsPerClient: 5,
    });
    expect(() =>
      loadConfig({ ...env, HTTP_HEADERS_TIMEOUT_MS: '6000', HTTP_REQUEST_TIMEOUT_MS: '5000' }),
    ).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
  });
});

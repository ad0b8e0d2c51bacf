/* eslint-disable @typescript-eslint/no-explicit-any -- raw wire bodies are asserted field by field in the tests */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { createIncidentSandbox, DEMO_API_KEY, type IncidentSandboxOptions } from '../src';

export interface Harness {
  url: string;
  sandbox: ReturnType<typeof createIncidentSandbox>;
  /** Raw call to the service API with the demo key (or the given one). */
  api(
    path: string,
    init?: RequestInit & { key?: string | null; json?: unknown },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** Call to the /_sandbox control API. */
  control(method: string, path: string, json?: unknown): Promise<{ status: number; body: any }>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

export async function startSandbox(options: IncidentSandboxOptions = {}): Promise<Harness> {
  const sandbox = createIncidentSandbox({
    webhookDelayMs: 5,
    webhookRetryDelaysMs: [20, 40],
    ...options,
  });
  const server = await sandbox.listen(0);
  cleanups.push(() => sandbox.close());
  const api: Harness['api'] = async (path, init = {}) => {
    const { key = DEMO_API_KEY, json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (key !== null) headers.set('x-api-key', key);
    if (json !== undefined) headers.set('content-type', 'application/json');
    const response = await fetch(`${server.url}${path}`, {
      ...rest,
      headers,
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? JSON.parse(text) : undefined,
      headers: response.headers,
    };
  };
  const control: Harness['control'] = async (method, path, json) => {
    const response = await fetch(`${server.url}/_sandbox${path}`, {
      method,
      headers: json !== undefined ? { 'content-type': 'application/json' } : {},
      body: json !== undefined ? JSON.stringify(json) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return { url: server.url, sandbox, api, control };
}

export interface ReceivedDelivery {
  headers: IncomingMessage['headers'];
  rawBody: string;
  body: any;
  receivedAt: number;
}

/** A webhook receiver on port 0 that records every delivery; `respond` decides each answer. */
export async function startReceiver(
  respond: (delivery: ReceivedDelivery, index: number, res: ServerResponse) => void = (
    _d,
    _i,
    res,
  ) => res.writeHead(200).end('ok'),
) {
  const received: ReceivedDelivery[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const delivery = {
        headers: req.headers,
        rawBody,
        body: JSON.parse(rawBody),
        receivedAt: Date.now(),
      };
      received.push(delivery);
      respond(delivery, received.length - 1, res);
      for (const w of waiters.filter((w) => received.length >= w.count)) w.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return {
    url,
    received,
    waitFor(count: number, timeoutMs = 3000) {
      if (received.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} deliveries, got ${received.length}`)),
          timeoutMs,
        );
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
  };
}

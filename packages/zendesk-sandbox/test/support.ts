import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createZendeskSandbox,
  seedDemo,
  type ZendeskSandbox,
  type ZendeskSandboxOptions,
} from '../src/index';
import type { DemoSeed } from '../src/seed-demo';

export interface Running {
  sandbox: ZendeskSandbox;
  demo: DemoSeed;
  url: string;
  api(subdomain: string, path: string): string;
  token(userId: number, scopes?: string[], subdomain?: string): string;
  close(): Promise<void>;
}

/** A sandbox on port 0 with the demo account and fast webhook retries. */
export async function startSandbox(options: ZendeskSandboxOptions = {}): Promise<Running> {
  const sandbox = createZendeskSandbox({
    ...options,
    webhooks: {
      retryDelaysMs: [5, 5, 5],
      retryAfterScale: 0.005,
      timeoutMs: 300,
      ...options.webhooks,
    },
  });
  const demo = seedDemo(sandbox);
  const server = await sandbox.listen(0);
  return {
    sandbox,
    demo,
    url: server.url,
    api: (subdomain, path) => `${server.url}/_z/${subdomain}/api/v2/${path}`,
    token: (userId, scopes = ['read', 'write'], subdomain = 'demo') =>
      sandbox.issueToken(subdomain, userId, scopes),
    close: async () => {
      await sandbox.webhooksIdle();
      await server.close();
    },
  };
}

// Tests read arbitrary, deeply nested JSON bodies and assert their shape; `any` keeps that readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export async function call(
  url: string,
  init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Json; headers: Headers }> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    redirect: 'manual',
  });
  const text = await response.text();
  let body: Json = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body, headers: response.headers };
}

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

/** A webhook endpoint recording raw requests; `statuses` are answered in order, then 200. */
export async function startReceiver(
  statuses: { status: number; headers?: Record<string, string> }[] = [],
) {
  const received: Received[] = [];
  const queue = [...statuses];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        raw: Buffer.concat(chunks),
      });
      const next = queue.shift() ?? { status: 200 };
      res.writeHead(next.status, { 'Content-Type': 'application/json', ...next.headers });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

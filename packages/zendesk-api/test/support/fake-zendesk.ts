import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The query string exactly as sent, to check encoding. */
  rawQuery: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  json(): unknown;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string | Buffer;
  /** Write the body in these chunks without a Content-Length. */
  chunks?: Buffer[];
  /** Drop the connection without answering. */
  destroy?: boolean;
  /** Answer only after this long (for timeouts). */
  delayMs?: number;
}

type Reply = FakeReply | ((request: RecordedRequest) => FakeReply);

/**
 * A tiny stand-in for Zendesk on port 0: each route answers with its queued replies in order
 * (the last one repeats), records every request, and notes any request no test expected.
 */
export class FakeZendesk {
  readonly requests: RecordedRequest[] = [];
  readonly unexpected: string[] = [];
  private readonly routes = new Map<string, Reply[]>();
  private readonly server: Server;
  url = '';

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://fake.local');
        const body = Buffer.concat(chunks);
        const recorded: RecordedRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          rawQuery: url.search,
          headers: req.headers,
          body,
          json: () => JSON.parse(body.toString('utf8')) as unknown,
        };
        this.requests.push(recorded);
        const reply = this.nextReply(recorded);
        if (!reply) {
          this.unexpected.push(`${recorded.method} ${recorded.path}`);
          res
            .writeHead(599, { 'content-type': 'application/json' })
            .end('{"error":"UnexpectedRequest"}');
          return;
        }
        const send = (): void => {
          if (reply.destroy) {
            req.socket.destroy();
            return;
          }
          const headers = { ...reply.headers };
          if (reply.chunks) {
            res.writeHead(reply.status ?? 200, headers);
            for (const chunk of reply.chunks) res.write(chunk);
            res.end();
            return;
          }
          if (reply.json !== undefined) headers['content-type'] ??= 'application/json';
          const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.body ?? '');
          headers['content-length'] = String(Buffer.byteLength(body));
          res.writeHead(reply.status ?? 200, headers);
          res.end(body);
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs);
        else send();
      });
    });
  }

  static async start(): Promise<FakeZendesk> {
    const fake = new FakeZendesk();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    const { port } = fake.server.address() as AddressInfo;
    fake.url = `http://127.0.0.1:${port}`;
    return fake;
  }

  /** Queue replies for `METHOD /path`; the last one keeps answering. */
  on(method: string, path: string, ...replies: Reply[]): this {
    this.routes.set(`${method} ${path}`, replies);
    return this;
  }

  requestsTo(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.method === method && request.path === path);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve, reject) =>
      this.server.close((error) => (error ? reject(error) : resolve())),
    );
  }

  private nextReply(request: RecordedRequest): FakeReply | undefined {
    const queue = this.routes.get(`${request.method} ${request.path}`);
    if (!queue || queue.length === 0) return undefined;
    const reply = queue.length > 1 ? queue.shift() : queue[0];
    if (reply === undefined) return undefined;
    return typeof reply === 'function' ? reply(request) : reply;
  }
}

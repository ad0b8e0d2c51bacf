import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createIncidentClient, type IncidentClientOptions } from '../../src';

interface RecordedRequest {
  method: string;
  /** path and query exactly as received (percent-encoding preserved) */
  rawUrl: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
  json(): unknown;
  formData(): Promise<FormData>;
}

export interface StubResponse {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
  /** wait before answering (timeouts) */
  delayMs?: number;
  /** drop the connection without an answer */
  destroy?: boolean;
}

export type StubHandler = (request: RecordedRequest) => StubResponse;

/**
 * A tiny HTTP server on port 0 that records every request and answers from a handler, or from a
 * queue of responses; a request nobody planned for is answered 599 so the test fails loudly.
 */
export async function startStubServer() {
  const requests: RecordedRequest[] = [];
  let handler: StubHandler | undefined;
  const queue: StubResponse[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        rawUrl: req.url ?? '',
        url: new URL(req.url ?? '/', 'http://stub'),
        headers: req.headers,
        body,
        json: () => JSON.parse(body.toString('utf8')) as unknown,
        formData: () =>
          new Request('http://stub', {
            method: 'POST',
            headers: { 'content-type': String(req.headers['content-type']) },
            body,
          }).formData(),
      };
      requests.push(recorded);
      const planned = queue.shift() ??
        handler?.(recorded) ?? { status: 599, json: { message: 'unexpected request' } };
      const send = () => {
        if (planned.destroy) {
          req.socket.destroy();
          return;
        }
        const payload =
          planned.json !== undefined ? JSON.stringify(planned.json) : (planned.text ?? '');
        res.writeHead(planned.status ?? 200, {
          ...(planned.json !== undefined ? { 'content-type': 'application/json' } : {}),
          ...planned.headers,
        });
        res.end(payload);
      };
      if (planned.delayMs) setTimeout(send, planned.delayMs);
      else send();
    });
  });

  // an idle connection outlives any pause between two tests on a busy machine: the client never
  // reuses a socket the server is closing (Node's 5 s default)
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    requests,
    /** answer every request with this handler (after any queued responses) */
    handle(next: StubHandler) {
      handler = next;
    },
    /** answer the next requests in order */
    enqueue(...responses: StubResponse[]) {
      queue.push(...responses);
    },
    reset() {
      requests.length = 0;
      queue.length = 0;
      handler = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    client(options: Partial<IncidentClientOptions> = {}) {
      return createIncidentClient({ baseURL: url, apiKey: 'test-key', retry: false, ...options });
    },
  };
}

export type StubServer = Awaited<ReturnType<typeof startStubServer>>;

// A redirect must never carry x-api-key or the request body to another address.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createIncidentClient, RedirectRefusedError, type IncidentClient } from '../src';

interface Hit {
  method: string;
  url: string;
  apiKey: string | undefined;
  body: string;
}

async function listen(handler: (hit: Hit) => { status: number; location?: string }) {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hit: Hit = {
        method: req.method ?? '',
        url: req.url ?? '',
        apiKey: req.headers['x-api-key'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      hits.push(hit);
      const answer = handler(hit);
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        ...(answer.location ? { location: answer.location } : {}),
      });
      res.end(JSON.stringify({ message: 'moved', data: {} }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('redirects', () => {
  let elsewhere: Awaited<ReturnType<typeof listen>>;
  let service: Awaited<ReturnType<typeof listen>>;
  let status = 307;
  let client: IncidentClient;

  beforeAll(async () => {
    elsewhere = await listen(() => ({ status: 200 }));
    service = await listen((hit) => ({ status, location: `${elsewhere.url}${hit.url}` }));
    client = createIncidentClient({
      baseURL: service.url,
      apiKey: 'secret-key',
      retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 1 },
    });
  });
  afterAll(async () => {
    await service.close();
    await elsewhere.close();
  });
  beforeEach(() => {
    elsewhere.hits.length = 0;
    service.hits.length = 0;
  });

  it.each([307, 308, 302, 301, 303])(
    'a %i on a POST is an error; the other origin never sees the key or the body',
    async (code) => {
      status = code;
      const error = await client.incidents
        .comment('inc_1', { comment: 'private analyst text' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedirectRefusedError);
      expect((error as RedirectRefusedError).status).toBe(code);
      expect((error as RedirectRefusedError).locationOrigin).toBe(elsewhere.url);
      expect((error as Error).message).toContain(`redirect to ${elsewhere.url} not followed`);
      expect((error as Error).message).toContain(`sent only to ${service.url}`);
      expect(elsewhere.hits).toEqual([]);
      expect(service.hits).toHaveLength(1); // refused, not retried
    },
  );

  it('a redirect on a read is refused too, and never retried', async () => {
    status = 307;
    await expect(client.incidents.retrieve('inc_1')).rejects.toBeInstanceOf(RedirectRefusedError);
    expect(elsewhere.hits).toEqual([]);
    expect(service.hits).toHaveLength(1);
  });
});

// The connector's own calls to Zendesk's OAuth endpoints never follow a redirect
// with the client secret, a grant or a bearer token.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthGrantError, requestTokens } from '../src/accounts/oauth-token-endpoint';
import { readSignedInUser, revokeToken } from '../src/accounts/signed-in-user';

async function listen(handler: (req: { method: string; url: string }) => [number, string?]) {
  const hits: { method: string; url: string; authorization?: string; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hit = { method: req.method ?? '', url: req.url ?? '' };
      hits.push({
        ...hit,
        body: Buffer.concat(chunks).toString('utf8'),
        ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      });
      const [status, location] = handler(hit);
      res.writeHead(status, location ? { location } : {});
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('OAuth calls and redirects', () => {
  let elsewhere: Awaited<ReturnType<typeof listen>>;
  let zendesk: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    elsewhere = await listen(() => [200]);
    zendesk = await listen((req) => [307, `${elsewhere.url}${req.url}`]);
  });
  afterAll(async () => {
    await zendesk?.close();
    await elsewhere?.close();
  });

  it('a token request answered 307 fails; the secret and the grant go nowhere else', async () => {
    const error = await requestTokens({
      baseUrl: zendesk.url,
      body: { grant_type: 'refresh_token', refresh_token: 'rt-secret', client_secret: 'cs-secret' },
      timeoutMs: 5_000,
      now: Date.now,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthGrantError);
    expect((error as OAuthGrantError).status).toBe(307);
    expect((error as OAuthGrantError).isInvalidGrant).toBe(false);
    expect(elsewhere.hits).toEqual([]);
  });

  it('users/me and the revocation never carry the token through a redirect', async () => {
    expect(await readSignedInUser(zendesk.url, 'at-secret', { timeoutMs: 5_000 })).toBeUndefined();
    await revokeToken(zendesk.url, 'at-secret', { timeoutMs: 5_000 });
    expect(elsewhere.hits).toEqual([]);
  });
});

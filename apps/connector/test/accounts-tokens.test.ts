import { describe, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from '@incident-desk/db';
import { ZendeskClient } from '@incident-desk/zendesk-api';
import { AccountUnavailableError } from '../src/accounts/account-context';
import { getConnectionStatus } from '../src/accounts/credential-store';
import {
  createZendeskTokenProvider,
  REFRESH_SKEW_MS,
} from '../src/accounts/zendesk-token-provider';
import { install, startAccountsHarness } from './accounts-harness';
import { backends } from './support/test-database';
import { secretBinding } from '../src/secrets/secret-bindings';
import { startedForTests } from './support/started-for-tests';

describe.each(backends)('Zendesk token lifecycle on %s', (backend) => {
  const h = startedForTests(() => startAccountsHarness(backend));
  let users: { adminId: number; agentId: number };
  let subdomainCounter = 0;

  /** A freshly installed account of its own, so tests do not share tokens. */
  async function installed() {
    subdomainCounter += 1;
    const subdomain = `tok${subdomainCounter}`;
    users = await h.createAccount(subdomain);
    const result = await install(h, subdomain, users.adminId);
    expect(result.status).toBe(200);
    const account = await h.db.prisma.account.findUniqueOrThrow({
      where: { zendeskSubdomain: subdomain },
    });
    const provider = (db: TDatabase = h.db) =>
      createZendeskTokenProvider({
        db,
        secretBox: h.secretBox,
        oauth: h.oauth,
        accountId: account.id,
        subdomain,
        now: h.now,
        fetch: h.fetch,
      });
    return { accountId: account.id, subdomain, provider };
  }

  const refreshesOf = (subdomain: string) =>
    h.tokenRequests.filter((r) => r.subdomain === subdomain && r.grant === 'refresh_token').length;

  async function sealedRefreshOf(accountId: string) {
    const row = await h.db.prisma.zendeskCredential.findUniqueOrThrow({ where: { accountId } });
    return h.secretBox.open(row.sealedRefreshToken!, secretBinding.zendeskRefreshToken(accountId));
  }

  it('refuses to refresh tokens issued to another OAuth client: re-authorisation, no request', async () => {
    const { accountId, subdomain } = await installed();
    const row = await h.db.prisma.zendeskCredential.findUniqueOrThrow({ where: { accountId } });
    expect(row.clientId).toBe(h.oauth.clientId);
    const otherClient = createZendeskTokenProvider({
      db: h.db,
      secretBox: h.secretBox,
      oauth: { ...h.oauth, clientId: 'another_client' },
      accountId,
      subdomain,
      now: h.now,
      fetch: h.fetch,
    });
    const before = refreshesOf(subdomain);
    h.clock.now += 86_400_000; // expired: a refresh would be needed
    await expect(otherClient.getAccessToken()).rejects.toBeInstanceOf(AccountUnavailableError);
    expect(refreshesOf(subdomain)).toBe(before);
    const status = await getConnectionStatus(h.db, accountId);
    expect(status.state).toBe('reauthorization_required');
    expect(status.lastError).toContain(h.oauth.clientId);
  });

  it('uses the stored token while more than 5 minutes remain, then refreshes and rotates', async () => {
    const { accountId, subdomain, provider } = await installed();
    const tokens = provider();
    const first = await tokens.getAccessToken();
    const oldRefresh = await sealedRefreshOf(accountId);
    h.clock.now += 86_400_000 - REFRESH_SKEW_MS - 1000;
    expect(await tokens.getAccessToken()).toBe(first);
    expect(refreshesOf(subdomain)).toBe(0);

    h.clock.now += 2000; // now less than 5 minutes remain
    const second = await tokens.getAccessToken();
    expect(second).not.toBe(first);
    expect(refreshesOf(subdomain)).toBe(1);
    const status = await getConnectionStatus(h.db, accountId);
    expect(status.accessExpiresAt?.getTime()).toBe(h.clock.now + 86_400_000);
    expect(await sealedRefreshOf(accountId)).not.toBe(oldRefresh);

    // The rotated refresh token is dead: reusing it is refused by Zendesk.
    const reuse = await fetch(`${h.sandboxUrl}/_z/${subdomain}/oauth/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'refresh_token',
        refresh_token: oldRefresh,
        client_id: h.oauth.clientId,
        client_secret: h.oauth.clientSecret,
      }),
    });
    expect(reuse.status).toBe(400);
    expect(((await reuse.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('concurrent refreshes of one account make one refresh and all get the new token', async () => {
    const { subdomain, provider } = await installed();
    h.clock.now += 86_400_000; // expired
    const a = provider();
    const b = provider();
    const results = await Promise.all([a.getAccessToken(), b.getAccessToken(), a.getAccessToken()]);
    expect(new Set(results).size).toBe(1);
    expect(refreshesOf(subdomain)).toBe(1);
  });

  // Two real processes: accounts-refresh-processes.test.ts. This one keeps the in-process case:
  // two database handles do not share the in-process queue, so the advisory lock must serialise.
  it.runIf(backend === 'postgres')(
    'two database handles in one process on one PostgreSQL: one refresh, both get the new token',
    async () => {
      const { subdomain, provider } = await installed();
      if (h.db.backend !== 'postgres') throw new Error('postgres only');
      const dbUrl = h.db.connectionString;
      const other = await openDatabase({ databaseUrl: dbUrl });
      try {
        h.clock.now += 86_400_000;
        const results = await Promise.all([
          provider().getAccessToken(),
          provider(other).getAccessToken(),
        ]);
        expect(results[0]).toBe(results[1]);
        expect(refreshesOf(subdomain)).toBe(1);
      } finally {
        await other.close();
      }
    },
  );

  it('after an unexpected 401 refreshes once and the call succeeds with the new token', async () => {
    const { subdomain, provider } = await installed();
    const tokens = provider();
    const first = await tokens.getAccessToken();
    // Zendesk refuses the still-valid token once (e.g. revoked by an admin's password change).
    await h.control('/faults', {
      path: '/api/v2/users/*',
      kind: 'unauthorized',
      subdomain,
      times: 1,
    });
    const client = new ZendeskClient({
      baseUrl: `${h.sandboxUrl}/_z/${subdomain}`,
      tokenProvider: tokens,
      retry: false,
    });
    const me = await client.users.me();
    expect(me.id).toBe(users.adminId);
    expect(refreshesOf(subdomain)).toBe(1);
    expect(await tokens.getAccessToken()).not.toBe(first);
  });

  it('an expired refresh token stops retries and marks the account reauthorization_required', async () => {
    const { accountId, subdomain, provider } = await installed();
    await h.control('/tokens/expire', {
      token: await sealedRefreshOf(accountId),
      which: 'refresh',
    });
    h.clock.now += 86_400_000;
    const tokens = provider();
    await expect(tokens.getAccessToken()).rejects.toMatchObject({
      name: 'AccountUnavailableError',
      reason: 'reauthorization_required',
    });
    const status = await getConnectionStatus(h.db, accountId);
    expect(status.state).toBe('reauthorization_required');
    expect(status.lastError).toContain('invalid_grant');
    // No further token requests: the account waits for an admin.
    const before = h.tokenRequests.length;
    await expect(tokens.getAccessToken()).rejects.toBeInstanceOf(AccountUnavailableError);
    await expect(tokens.refreshAfterUnauthorized('x')).rejects.toBeInstanceOf(
      AccountUnavailableError,
    );
    expect(h.tokenRequests.length).toBe(before);
    expect(refreshesOf(subdomain)).toBe(1);

    // Re-authorising brings it back.
    expect((await install(h, subdomain, users.adminId)).status).toBe(200);
    expect((await getConnectionStatus(h.db, accountId)).state).toBe('active');
    await expect(provider().getAccessToken()).resolves.toEqual(expect.any(String));
  });

  it('a revoked refresh token also leads to reauthorization_required', async () => {
    const { accountId, provider } = await installed();
    const tokens = provider();
    const current = await tokens.getAccessToken();
    await h.control('/tokens/revoke', { token: await sealedRefreshOf(accountId) });
    // Zendesk refused `current` with a 401: the refresh that follows hits the revoked token.
    await expect(tokens.refreshAfterUnauthorized(current)).rejects.toMatchObject({
      reason: 'reauthorization_required',
    });
    expect((await getConnectionStatus(h.db, accountId)).state).toBe('reauthorization_required');
  });

  it('a refresh token past its stored expiry is not even sent', async () => {
    const { accountId, subdomain, provider } = await installed();
    h.clock.now += 7_776_000_000 + 1000;
    await expect(provider().getAccessToken()).rejects.toBeInstanceOf(AccountUnavailableError);
    expect(refreshesOf(subdomain)).toBe(0);
    expect((await getConnectionStatus(h.db, accountId)).state).toBe('reauthorization_required');
  });
});

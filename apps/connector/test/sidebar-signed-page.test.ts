// The sidebar's signed page: Zendesk POSTs the location with a ZAF JWT it signed
// with the app's key (here the in-process Zendesk sandbox's key), and only a token of an installed
// account's installation of this app, for an agent of it, within its exp, opens a session. Every
// refusal is the same page, whether the subdomain is installed or not (item 6).
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoSeed } from '@incident-desk/zendesk-sandbox';
import { ZendeskClient } from '@incident-desk/zendesk-api';
import { AccountUnavailableError, type AccountContext } from '../src/accounts/account-context';
import { errorHandler } from '../src/http/app-error';
import { sidebarApiRouter } from '../src/sidebar-api';
import { createAppPublicKeys } from '../src/sidebar-api/app-public-key';
import {
  startTicketSyncHarness,
  SYNC_ACCOUNT,
  type TicketSyncHarness,
} from './support/sync-ticket-harness';
import { backends } from './support/test-database';

const APP_ID = 1;
const ACCOUNT_B = '00000000-0000-4000-8000-0000000000b3';
const ACCOUNT_REVOKED = '00000000-0000-4000-8000-0000000000b4';
// an account already marked as having lost its grant: the provider refuses it outright
const ACCOUNT_LOST = '00000000-0000-4000-8000-0000000000b5';
const PAGE = '/sidebar/app/assets/iframe.html';

describe.each(backends)('the signed sidebar page on %s', (backend) => {
  let h: TicketSyncHarness;
  let other: DemoSeed;
  let baseUrl: string;
  let closeServer: () => Promise<void>;
  let installationA: number;
  let installationB: number;
  let installationRevoked: number;
  let revoked: DemoSeed;
  const logs: string[] = [];

  beforeAll(async () => {
    h = await startTicketSyncHarness(backend);
    other = seedDemo(h.zendeskSandbox, 'other');
    await h.db.prisma.account.create({ data: { id: ACCOUNT_B, zendeskSubdomain: 'other' } });
    installationA = h.zendeskSandbox.state.apps.install('demo', APP_ID);
    installationB = h.zendeskSandbox.state.apps.install('other', APP_ID);
    revoked = seedDemo(h.zendeskSandbox, 'revoked');
    await h.db.prisma.account.create({
      data: { id: ACCOUNT_REVOKED, zendeskSubdomain: 'revoked' },
    });
    installationRevoked = h.zendeskSandbox.state.apps.install('revoked', APP_ID);
    await h.db.prisma.account.create({ data: { id: ACCOUNT_LOST, zendeskSubdomain: 'lost' } });
    // the account's refresh token was revoked: every Zendesk call says re-authorise
    const ctxRevoked: AccountContext = {
      ...h.ctx,
      accountId: ACCOUNT_REVOKED,
      subdomain: 'revoked',
      zendesk: new ZendeskClient({
        baseUrl: `${h.zendeskUrl}/_z/revoked`,
        tokenProvider: {
          getAccessToken: async () => {
            throw new AccountUnavailableError(ACCOUNT_REVOKED, 'reauthorization_required');
          },
          refreshAfterUnauthorized: async () => {
            throw new AccountUnavailableError(ACCOUNT_REVOKED, 'reauthorization_required');
          },
        },
        retry: false,
      }),
    };
    const tokenB = h.zendeskSandbox.issueToken('other', other.adminId, ['read', 'write'], 172_800);
    const ctxB: AccountContext = {
      ...h.ctx,
      accountId: ACCOUNT_B,
      subdomain: 'other',
      zendesk: new ZendeskClient({
        baseUrl: `${h.zendeskUrl}/_z/other`,
        tokenProvider: {
          getAccessToken: async () => tokenB,
          refreshAfterUnauthorized: async () => tokenB,
        },
        retry: false,
      }),
    };
    const distDir = mkdtempSync(path.join(tmpdir(), 'sidebar-dist-'));
    mkdirSync(path.join(distDir, 'assets'));
    writeFileSync(
      path.join(distDir, 'assets', 'iframe.html'),
      '<!doctype html><html><head><title>t</title></head><body><div id="root"></div></body></html>',
    );
    writeFileSync(path.join(distDir, 'assets', 'app.js'), 'console.log(1)');
    const app = express();
    app.use(
      sidebarApiRouter({
        db: h.db,
        accounts: {
          forAccount: async (id) => {
            if (id === ACCOUNT_LOST)
              throw new AccountUnavailableError(ACCOUNT_LOST, 'reauthorization_required');
            return id === SYNC_ACCOUNT ? h.ctx : id === ACCOUNT_REVOKED ? ctxRevoked : ctxB;
          },
        },
        appId: APP_ID,
        distDir,
        zendeskOriginOf: (subdomain) => `https://${subdomain}.zendesk.example`,
        // rotation is covered here; the refetch rate limit in its own test below
        publicKeyRefetchMs: 0,
        log: (message) => logs.push(message),
      }),
    );
    app.use(errorHandler);
    const server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    closeServer = () => new Promise((resolve) => server.close(() => resolve()));
  });

  afterAll(async () => {
    await closeServer?.();
    await h?.close();
  });

  interface Claims {
    subdomain?: string;
    installationId?: number;
    userId?: number;
    iss?: string;
    aud?: string;
    sub?: string;
  }

  function zafToken(
    claims: Claims = {},
    { key, expiresIn = '5m' }: { key?: KeyObject; expiresIn?: string } = {},
  ): Promise<string> {
    const subdomain = claims.subdomain ?? 'demo';
    const host = `${subdomain}.zendesk.com`;
    return new SignJWT({
      iss: claims.iss ?? host,
      aud:
        claims.aud ??
        `https://${host}/api/v2/apps/installations/${claims.installationId ?? installationA}.json`,
      sub: claims.sub ?? `https://${host}/api/v2/users/${claims.userId ?? h.demo.agentIds[0]}.json`,
      context: { product: 'support', location: 'ticket_sidebar' },
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(expiresIn)
      .sign(key ?? h.zendeskSandbox.state.apps.keyOf(APP_ID).privateKey);
  }

  async function openPage(token: string | null) {
    const response = await fetch(
      `${baseUrl}${PAGE}?origin=https%3A%2F%2Fdemo.zendesk.com&app_guid=g1`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(token === null ? {} : { token }).toString(),
      },
    );
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  const sessionIn = (html: string): { token: string; expiresAt: string } | null => {
    const match =
      /<script type="application\/json" id="incident-desk-session">(.*?)<\/script>/.exec(html);
    return match ? (JSON.parse(match[1]!) as { token: string; expiresAt: string }) : null;
  };

  async function viewWith(sessionToken: string, ticketId: number) {
    return fetch(`${baseUrl}/sidebar/tickets/${ticketId}`, {
      headers: { authorization: `Bearer ${sessionToken}` },
    });
  }

  it('answers a token Zendesk signed with the page and a session of that agent', async () => {
    const page = await openPage(await zafToken());
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain(
      'frame-ancestors https://demo.zendesk.example',
    );
    expect(page.headers.get('cache-control')).toBe('no-store');
    const session = sessionIn(page.text);
    expect(session?.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const ticketId = await h.createTicket({ threat: 'page.example', tags: [] });
    expect((await viewWith(session!.token, ticketId)).status).toBe(200);
    // only the hash is stored
    const rows = await h.db.prisma.sidebarSession.findMany({ where: { accountId: SYNC_ACCOUNT } });
    expect(
      JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
    ).not.toContain(session!.token);
    // the scripts of the page come from the same origin
    expect((await fetch(`${baseUrl}/sidebar/app/assets/app.js`)).status).toBe(200);
  });

  it("a verified page whose account lost its Zendesk grant opens the sidebar's error view, never JSON", async () => {
    // the app's key is read once, with any account's client; this account's own calls all fail
    expect((await openPage(await zafToken())).status).toBe(200);
    const page = await openPage(
      await zafToken({
        subdomain: 'revoked',
        installationId: installationRevoked,
        userId: revoked.agentIds[0],
      }),
    );
    expect(page.status).toBe(503);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toContain(
      '<script type="application/json" id="incident-desk-page-error">{"code":"reauthorization_required"}</script>',
    );
    expect(page.text).toContain('<div id="root">');
    expect(sessionIn(page.text)).toBeNull();
    expect(page.text).not.toContain('"error":');
    expect(page.headers.get('content-security-policy')).toContain(
      'frame-ancestors https://revoked.zendesk.example',
    );
  });

  it("an account already known to have lost its grant still opens the error view, for Zendesk's tokens only", async () => {
    // the app's key was read for an earlier page; this account can ask Zendesk nothing any more
    expect((await openPage(await zafToken())).status).toBe(200);
    const lost = { subdomain: 'lost', installationId: 77, userId: 5 };
    for (let open = 0; open < 2; open += 1) {
      const page = await openPage(await zafToken(lost));
      expect(page.status).toBe(503);
      expect(page.text).toContain(
        '<script type="application/json" id="incident-desk-page-error">{"code":"reauthorization_required"}</script>',
      );
      expect(sessionIn(page.text)).toBeNull();
      expect(page.headers.get('content-security-policy')).toContain(
        'frame-ancestors https://lost.zendesk.example',
      );
    }
    // a token the app's key did not sign, one past its exp, or one naming another account: refused
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    for (const token of [
      await zafToken(lost, { key: privateKey }),
      await zafToken(lost, { expiresIn: '-120s' }),
      await zafToken({ ...lost, iss: 'demo.zendesk.com' }),
    ]) {
      const page = await openPage(token);
      expect(page.status).toBe(401);
      expect(page.text).toContain('sidebar-refused');
    }
  });

  it('refuses a GET of the page and a POST without a token', async () => {
    expect((await fetch(`${baseUrl}${PAGE}`)).status).toBe(401);
    expect((await openPage(null)).status).toBe(401);
  });

  it('refuses tokens of another installation, another account, past exp, or not signed by Zendesk', async () => {
    const refused = [
      // another installation of the same account
      await zafToken({ installationId: installationA + 1_000 }),
      // account B's installation named by account A
      await zafToken({ installationId: installationB }),
      // the audience of another account
      await zafToken({
        aud: `https://other.zendesk.com/api/v2/apps/installations/${installationB}.json`,
      }),
      // a user of another account, in its own URL or named in A's
      await zafToken({ sub: `https://other.zendesk.com/api/v2/users/${other.agentIds[0]}.json` }),
      await zafToken({ userId: other.agentIds[0] }),
      // an end user
      await zafToken({ userId: h.demo.endUserId }),
      // past exp
      await zafToken({}, { expiresIn: '-120s' }),
      // another key
      await zafToken({}, { key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey }),
      // the same claims unsigned
      `${Buffer.from('{"alg":"none"}').toString('base64url')}.${(await zafToken()).split('.')[1]}.`,
    ];
    for (const token of refused) {
      const page = await openPage(token);
      expect(page.status).toBe(401);
      expect(sessionIn(page.text)).toBeNull();
    }
    // account B's own token opens B's page
    const ofB = await openPage(
      await zafToken({
        subdomain: 'other',
        installationId: installationB,
        userId: other.agentIds[0],
      }),
    );
    expect(ofB.status).toBe(200);
    expect(ofB.headers.get('content-security-policy')).toContain('https://other.zendesk.example');
  });

  it('answers the same whether the subdomain is installed or not', async () => {
    h.zendeskSandbox.createAccount(`absent-${backend}`);
    const notInstalled = await openPage(await zafToken({ subdomain: `absent-${backend}` }));
    const installedBadAudience = await openPage(await zafToken({ installationId: 1 }));
    const garbage = await openPage('x.y.z');
    expect(notInstalled.status).toBe(401);
    expect(notInstalled.text).toBe(installedBadAudience.text);
    expect(notInstalled.text).toBe(garbage.text);
    expect(notInstalled.text).not.toContain('absent');
  });

  it('follows a rotation of the app’s key: new tokens verify, old ones no longer do', async () => {
    const before = await zafToken();
    expect((await openPage(before)).status).toBe(200);
    h.zendeskSandbox.state.apps.rotateKey(APP_ID);
    expect((await openPage(await zafToken())).status).toBe(200);
    expect((await openPage(before)).status).toBe(401);
  });
});

describe('the app public key cache', () => {
  it('reads the key once, and again after a failure at most once per interval', async () => {
    let clock = 0;
    let reads = 0;
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const fetchPem = async () => {
      reads += 1;
      return pem;
    };
    const keys = createAppPublicKeys({ now: () => clock, minRefetchIntervalMs: 60_000 });
    await keys.current(fetchPem);
    await keys.current(fetchPem);
    expect(reads).toBe(1);
    // a flood of tokens that fail to verify right after the read: no new read
    for (let i = 0; i < 5; i += 1) expect(await keys.refetched(fetchPem)).toBeNull();
    clock = 60_000;
    expect(await keys.refetched(fetchPem)).not.toBeNull();
    expect(await keys.refetched(fetchPem)).toBeNull();
    expect(reads).toBe(2);
  });
});

// The accounts tests' world: an in-process Zendesk sandbox with a shared fake clock, a connector
// serving accountsRouter on port 0, and helpers that walk the OAuth dance over real HTTP.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createZendeskSandbox } from '@incident-desk/zendesk-sandbox';
import { accountsRouter } from '../src/accounts/install-router';
import { oauthStartLimiter } from '../src/accounts/page-protection';
import {
  ZZendeskOAuthConfig,
  type TZendeskOAuthConfig,
} from '../src/accounts/zendesk-oauth-config';
import { createSecretBox, type SecretBox } from '../src/secrets/secret-box';
import { openTestDatabase, type Backend } from './support/test-database';

const CLIENT_ID = 'incident_desk_test';
const CLIENT_SECRET = 'incident-desk-test-secret';

export interface AccountsHarness {
  db: Awaited<ReturnType<typeof openTestDatabase>>;
  secretBox: SecretBox;
  oauth: TZendeskOAuthConfig;
  sandboxUrl: string;
  connectorUrl: string;
  clock: { now: number };
  now: () => number;
  /** The token records the Zendesk sandbox holds for an account. */
  sandboxTokens(subdomain: string): { revoked: boolean }[];
  /** Every POST /oauth/tokens the connector made. */
  tokenRequests: { grant: string; subdomain: string }[];
  fetch: typeof fetch;
  createAccount(subdomain: string): Promise<{ adminId: number; agentId: number }>;
  control(path: string, body: unknown): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startAccountsHarness(
  backend: Backend,
  options: { scope?: string; startLimit?: number; maxStoredStates?: number } = {},
): Promise<AccountsHarness> {
  const clock = { now: Date.parse('2026-11-21T12:00:00Z') };
  const now = () => clock.now;
  const sandbox = createZendeskSandbox({ clock: now, searchLagMs: 0 });
  const zendesk = await sandbox.listen(0);
  const sandboxUrl = zendesk.url.replace(/\/+$/, '');

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const connectorUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const db = await openTestDatabase(backend);
  const secretBox = createSecretBox(
    [{ id: 'test-1', key: new Uint8Array(randomBytes(32)) }],
    'test-1',
  );
  const oauth = ZZendeskOAuthConfig.parse({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: `${connectorUrl}/oauth/callback`,
    baseUrlTemplate: `${sandboxUrl}/_z/{subdomain}`,
    ...(options.scope ? { scope: options.scope } : {}),
  });
  const tokenRequests: AccountsHarness['tokenRequests'] = [];
  const countingFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const match = /^\/_z\/([^/]+)\/oauth\/tokens$/.exec(url.pathname);
    if (match && init?.method === 'POST') {
      const grant = (JSON.parse(String(init.body)) as { grant_type: string }).grant_type;
      tokenRequests.push({ grant, subdomain: match[1]! });
    }
    return fetch(input, init);
  };

  const app = express();
  app.use(
    accountsRouter({
      db,
      secretBox,
      oauth,
      now,
      fetch: countingFetch,
      // generous by default: these tests start many flows from one address
      startLimiter: oauthStartLimiter(options.startLimit ?? 1000),
      ...(options.maxStoredStates ? { maxStoredStates: options.maxStoredStates } : {}),
    }),
  );
  server.on('request', app);

  async function control(path: string, body: unknown) {
    const response = await fetch(`${sandboxUrl}/_sandbox${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`control ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  }

  await control('/oauth/clients', {
    identifier: CLIENT_ID,
    secret: CLIENT_SECRET,
    name: 'incident-desk',
    redirect_uris: [oauth.redirectUri],
  });

  return {
    db,
    secretBox,
    oauth,
    sandboxUrl,
    connectorUrl,
    clock,
    now,
    sandboxTokens: (subdomain) => sandbox.state.tokens.filter((t) => t.subdomain === subdomain),
    tokenRequests,
    fetch: countingFetch,
    control,
    async createAccount(subdomain) {
      const created = await control('/accounts', {
        subdomain,
        users: [
          { name: 'Ada Admin', email: `admin@${subdomain}.example`, role: 'admin' },
          { name: 'Abe Agent', email: `agent@${subdomain}.example`, role: 'agent' },
        ],
      });
      const users = created.users as { id: number }[];
      return { adminId: users[0]!.id, agentId: users[1]!.id };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await zendesk.close();
      await db.dispose();
    },
  };
}

function hiddenInputs(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[decodeEntities(match[1]!)] = decodeEntities(match[2]!);
  }
  return fields;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * The browser's cookie for each started flow, by state: /install and /admin/sign-in bind the state
 * to the browser with a cookie, and only a callback carrying it is accepted.
 */
const stateCookies = new Map<string, string>();

/** The `name=value` pairs a response sets (expired ones left out). */
export function cookiesSet(response: Response): string[] {
  return response.headers
    .getSetCookie()
    .filter((cookie) => !/Max-Age=0\b/.test(cookie))
    .map((cookie) => cookie.split(';')[0]!);
}

/** Remembers the state cookie a start response (302 to Zendesk) set. */
export function rememberStateCookie(start: Response): URL {
  const location = new URL(start.headers.get('location')!);
  const state = location.searchParams.get('state');
  const cookie = cookiesSet(start).find((pair) => pair.includes('-oauth='));
  if (state && cookie) stateCookies.set(state, cookie);
  return location;
}

/** The state cookie of the browser that started the flow of this callback URL (if any). */
export function stateCookieFor(callbackUrl: URL): string | undefined {
  return stateCookies.get(callbackUrl.searchParams.get('state') ?? '');
}

/** Follows a callback URL as the browser that started the flow does (with its state cookie). */
export function followCallback(
  callbackUrl: URL,
  init: RequestInit & { cookies?: string[] } = {},
): Promise<Response> {
  const { cookies = [], ...rest } = init;
  const own = stateCookieFor(callbackUrl);
  const all = [...(own ? [own] : []), ...cookies];
  return fetch(callbackUrl, {
    ...rest,
    headers: { ...(all.length ? { cookie: all.join('; ') } : {}), ...(rest.headers ?? {}) },
  });
}

/** What the browser-like helpers need: where the connector and the Zendesk sandbox are. */
export type OAuthEndpoints = Pick<AccountsHarness, 'connectorUrl' | 'sandboxUrl'>;

/** Connector /install -> Zendesk approval page, as a browser would follow it. */
export async function startInstall(
  harness: OAuthEndpoints,
  subdomain: string,
): Promise<{ authorizeUrl: URL; approvalPage: string }> {
  const install = await fetch(`${harness.connectorUrl}/install?subdomain=${subdomain}`, {
    redirect: 'manual',
  });
  if (install.status !== 302) throw new Error(`install answered ${install.status}`);
  const authorizeUrl = rememberStateCookie(install);
  const page = await fetch(authorizeUrl);
  if (page.status !== 200) throw new Error(`approval page answered ${page.status}`);
  return { authorizeUrl, approvalPage: await page.text() };
}

/** Submits the approval form as its Allow or Deny button does; returns the callback URL. */
export async function submitApproval(
  harness: OAuthEndpoints,
  approvalPage: string,
  decision: 'allow' | 'deny',
  userId: number,
): Promise<URL> {
  const action = /<form method="post" action="([^"]+)"/.exec(approvalPage)![1]!;
  const form = new URLSearchParams({
    ...hiddenInputs(approvalPage),
    user_id: String(userId),
    decision,
  });
  const response = await fetch(new URL(decodeEntities(action), harness.sandboxUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  if (response.status !== 302 && response.status !== 303) {
    throw new Error(`approval answered ${response.status}: ${await response.text()}`);
  }
  return new URL(response.headers.get('location')!);
}

/** The whole dance; returns the callback's answer (followed as `init` says). */
export async function install(
  harness: OAuthEndpoints,
  subdomain: string,
  userId: number,
  init: RequestInit & { cookies?: string[] } = {},
): Promise<{ status: number; body: string; callbackUrl: URL; response: Response }> {
  const { approvalPage } = await startInstall(harness, subdomain);
  const callbackUrl = await submitApproval(harness, approvalPage, 'allow', userId);
  const callback = await followCallback(callbackUrl, init);
  return { status: callback.status, body: await callback.text(), callbackUrl, response: callback };
}

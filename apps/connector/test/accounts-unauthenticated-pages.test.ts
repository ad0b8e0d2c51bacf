// The unauthenticated pages of the install: the OAuth state counts only in the browser
// that started the flow, the callback never echoes Zendesk's (or an attacker's) error text, every
// page carries a strict CSP with no framing and nosniff, and a flood of starts neither passes the
// per-client limit nor grows the state table past its cap.
import type { Request, Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInstallState } from '../src/accounts/install-states';
import { setStateCookie, stateCookieMatches } from '../src/accounts/oauth-state-cookie';
import { PAGE_STYLE_SOURCE } from '../src/accounts/html-page';
import { zendeskFormActionSource } from '../src/accounts/page-protection';
import {
  followCallback,
  install,
  startAccountsHarness,
  startInstall,
  stateCookieFor,
  submitApproval,
  type AccountsHarness,
} from './accounts-harness';
import { backends } from './support/test-database';

const countStates = (h: AccountsHarness) => h.db.prisma.oAuthInstallState.count();

function expectPageHeaders(response: globalThis.Response) {
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).not.toContain('script-src');
  // the pages' one stylesheet, by its hash: no 'unsafe-inline'
  expect(csp).toContain(`style-src ${PAGE_STYLE_SOURCE}`);
  expect(csp).not.toContain('unsafe-inline');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
}

describe.each(backends)('unauthenticated install pages on %s', (backend) => {
  let h: AccountsHarness;
  let acme: { adminId: number; agentId: number };

  beforeAll(async () => {
    h = await startAccountsHarness(backend);
    acme = await h.createAccount('acme');
  });
  afterAll(() => h.close());

  describe('the state is bound to the browser that started the flow', () => {
    it('sets a short-lived HttpOnly SameSite=Lax cookie holding a hash of the state', async () => {
      const start = await fetch(`${h.connectorUrl}/install?subdomain=acme`, { redirect: 'manual' });
      const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
      const cookie = start.headers.getSetCookie().find((c) => c.startsWith('incident-desk-oauth='));
      expect(cookie).toMatch(
        /^incident-desk-oauth=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600$/,
      );
      expect(cookie).not.toContain(state);
    });

    it('a callback followed in another browser is refused, unspent, and no code is exchanged', async () => {
      const { approvalPage } = await startInstall(h, 'acme');
      const callbackUrl = await submitApproval(h, approvalPage, 'allow', acme.adminId);
      const before = h.tokenRequests.length;
      // the victim's browser: no cookie, or the cookie of a flow of its own
      const own = await startInstall(h, 'acme');
      const victimCookie = stateCookieFor(own.authorizeUrl);
      const browsers: Record<string, string>[] = [{}, { cookie: victimCookie! }];
      for (const headers of browsers) {
        const answer = await fetch(callbackUrl, { headers });
        expect(answer.status).toBe(400);
        expect(await answer.text()).toContain('not started in this browser');
      }
      expect(h.tokenRequests.length).toBe(before);
      const row = await h.db.prisma.oAuthInstallState.findUniqueOrThrow({
        where: { state: callbackUrl.searchParams.get('state')! },
      });
      expect(row.consumedAt).toBeNull();
      // the browser that started it completes it
      const own2 = await followCallback(callbackUrl);
      expect(own2.status).toBe(200);
    });

    it('over HTTPS the cookie is __Host- prefixed and Secure; the plain name is not read there', () => {
      const appended: string[] = [];
      const res = { append: (_n: string, v: string) => appended.push(v) } as unknown as Response;
      setStateCookie(res, { secure: true }, 'S'.repeat(43));
      expect(appended[0]).toMatch(
        /^__Host-incident-desk-oauth=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600; Secure$/,
      );
      const value = appended[0]!.split(';')[0]!.split('=')[1]!;
      const req = (cookie: string) => ({ get: () => cookie }) as unknown as Request;
      expect(
        stateCookieMatches(
          req(`__Host-incident-desk-oauth=${value}`),
          { secure: true },
          'S'.repeat(43),
        ),
      ).toBe(true);
      expect(
        stateCookieMatches(req(`incident-desk-oauth=${value}`), { secure: true }, 'S'.repeat(43)),
      ).toBe(false);
      expect(
        stateCookieMatches(
          req(`__Host-incident-desk-oauth=${value}`),
          { secure: true },
          'T'.repeat(43),
        ),
      ).toBe(false);
    });
  });

  describe('the callback page never echoes the error text of the URL', () => {
    it('maps known error codes to our own words and does not repeat unknown ones', async () => {
      const phishing = 'Your account is locked, call +1 555 0100 or visit evil.example';
      for (const [code, status, expected] of [
        ['access_denied', 403, 'The authorization was denied on Zendesk. (access_denied)'],
        ['invalid_scope', 400, 'Zendesk refused the permissions'],
        [`call_support_at_evil_example`, 400, 'Zendesk did not authorize the request.'],
      ] as const) {
        const { authorizeUrl } = await startInstall(h, 'acme');
        const callback = new URL(`${h.connectorUrl}/oauth/callback`);
        callback.searchParams.set('state', authorizeUrl.searchParams.get('state')!);
        callback.searchParams.set('error', code);
        callback.searchParams.set('error_description', phishing);
        const answer = await followCallback(callback);
        const body = await answer.text();
        expect(answer.status).toBe(status);
        expect(body).toContain(expected);
        expect(body).not.toContain('locked');
        expect(body).not.toContain('evil');
      }
    });
  });

  describe('security headers', () => {
    it('/install (form, refusal and start), /oauth/callback (error and success)', async () => {
      expectPageHeaders(await fetch(`${h.connectorUrl}/install`));
      expectPageHeaders(await fetch(`${h.connectorUrl}/install?subdomain=a.b`));
      const start = await fetch(`${h.connectorUrl}/install?subdomain=acme`, { redirect: 'manual' });
      expectPageHeaders(start);
      expectPageHeaders(await fetch(`${h.connectorUrl}/oauth/callback?code=x`));
      const success = await install(h, 'acme', acme.adminId);
      expect(success.status).toBe(200);
      const again = await followCallback(success.callbackUrl);
      expectPageHeaders(again);
      // the form may lead to Zendesk: its origin is allowed as a form target, nothing else is
      const csp = start.headers.get('content-security-policy')!;
      expect(csp).toContain(`form-action 'self' ${h.sandboxUrl}`);
    });

    it('the form is styled and has no pattern attribute; a pasted Zendesk address starts acme’s install', async () => {
      const form = await (await fetch(`${h.connectorUrl}/install`)).text();
      expect(form).toContain('<style>');
      expect(form).not.toContain('pattern=');
      const pasted = await fetch(
        `${h.connectorUrl}/install?subdomain=${encodeURIComponent('https://acme.zendesk.com/agent')}`,
        { redirect: 'manual' },
      );
      expect(pasted.status).toBe(302);
      expect(new URL(pasted.headers.get('location')!).pathname).toContain('/_z/acme/');
      const refused = await fetch(`${h.connectorUrl}/install?subdomain=https%3A%2F%2Fevil.example`);
      expect(refused.status).toBe(400);
      const page = await refused.text();
      expect(page).toContain('acme for acme.zendesk.com');
      // what was typed stays in the field
      expect(page).toContain('value="https://evil.example"');
      expect(page).toContain('<style>');
    });

    it('the form-action source for production accounts is *.zendesk.com', () => {
      expect(zendeskFormActionSource('https://{subdomain}.zendesk.com')).toBe(
        'https://*.zendesk.com',
      );
      expect(zendeskFormActionSource('http://localhost:8789/_z/{subdomain}')).toBe(
        'http://localhost:8789',
      );
    });
  });
});

describe.each(backends)('starting authorizations is bounded on %s', (backend) => {
  let h: AccountsHarness;

  beforeAll(async () => {
    // the production default limit: 30 starts per client per 10 minutes
    h = await startAccountsHarness(backend, { startLimit: 30 });
  });
  afterAll(() => h.close());

  it('3,000 starts from one client store at most 30 states; the rest are answered 429', async () => {
    const before = await countStates(h);
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 60; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          fetch(`${h.connectorUrl}/install?subdomain=flood${batch}`, { redirect: 'manual' }).then(
            async (r) => {
              await r.arrayBuffer();
              return r.status;
            },
          ),
        ),
      );
      for (const status of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(statuses.get(302)).toBe(30);
    expect(statuses.get(429)).toBe(2970);
    expect((await countStates(h)) - before).toBe(30);
    // the bare form and refused subdomains store nothing and are not counted
    expect((await fetch(`${h.connectorUrl}/install`)).status).toBe(200);
    expect((await fetch(`${h.connectorUrl}/install?subdomain=a.b`)).status).toBe(400);
  });

  it('the table keeps at most its cap, newest first, whatever the number of clients', async () => {
    const cap = 25;
    let newest = '';
    for (let i = 0; i < 120; i++) {
      newest = await createInstallState(h.db, `many${i}`, new Date(h.now() + i), 'install', cap);
    }
    expect(await countStates(h)).toBe(cap);
    expect(
      await h.db.prisma.oAuthInstallState.findUnique({ where: { state: newest } }),
    ).not.toBeNull();
  });
});

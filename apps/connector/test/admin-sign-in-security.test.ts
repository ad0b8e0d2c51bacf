// The admin page's sign-in: a callback counts only in the browser that started it; an install
// signs its admin in with the same session; a browser signed in for one account is asked before a
// sign-in (or an install) for another replaces its session;
// the sign-in and admin pages carry a strict CSP; and a session ends once its user is no longer an
// admin of the account on Zendesk.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookiesSet, followCallback, stateCookieFor } from './accounts-harness';
import { startAdminHarness, type AdminHarness, type SignedIn } from './admin-harness';
import { backends } from './support/test-database';

const hashOf = (cookie: string) =>
  createHash('sha256').update(cookie.split('=')[1]!).digest('base64url');

describe.each(backends)('admin sign-in security (%s)', (backend) => {
  let h: AdminHarness;
  let acme: { adminId: number; agentId: number };
  let globex: { adminId: number; agentId: number };

  const control = async (method: string, route: string, body: unknown) => {
    const response = await fetch(`${h.sandboxUrl}/_sandbox${route}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.ok).toBe(true);
  };
  const sessionRow = (session: SignedIn) =>
    h.connector.db.prisma.adminSession.findUnique({ where: { tokenHash: hashOf(session.cookie) } });

  beforeAll(async () => {
    h = await startAdminHarness(backend);
    acme = await h.createAccount('acme');
    globex = await h.createAccount('globex');
    expect((await h.install('acme', acme.adminId)).status).toBe(303);
    expect((await h.install('globex', globex.adminId)).status).toBe(303);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a sign-in callback followed in another browser gives no session', async () => {
    const callbackUrl = await h.signInCallback('acme', acme.adminId);
    const elsewhere = await fetch(callbackUrl, { redirect: 'manual' });
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain('not started in this browser');
    expect(cookiesSet(elsewhere)).toEqual([]);
    // the starting browser still completes it: the state was not spent
    expect((await followCallback(callbackUrl, { redirect: 'manual' })).status).toBe(303);
  });

  it('asks before a sign-in for another account replaces the session, and switches only when confirmed', async () => {
    const acmeSession = await h.signIn('acme', acme.adminId);
    // The attack of the review: the victim, signed in for acme, follows a sign-in for globex.
    // (The state cookie is this browser's own here: the confirmation is the second line.)
    const callbackUrl = await h.signInCallback('globex', globex.adminId);
    const answer = await followCallback(callbackUrl, {
      redirect: 'manual',
      cookies: [acmeSession.marker!],
    });
    expect(answer.status).toBe(200);
    const page = await answer.text();
    expect(page).toContain('signed in to the incident-desk admin page of acme');
    expect(page).toContain('Switch to globex');
    expect(cookiesSet(answer).filter((c) => c.includes('incident-desk-admin'))).toEqual([]);
    // acme's session is untouched and the pending one opens nothing
    expect((await h.api(acmeSession, 'GET', '/admin/api/session')).body).toMatchObject({
      subdomain: 'acme',
    });
    const pending = /name="token" value="([A-Za-z0-9_-]{43})"/.exec(page)![1]!;
    const asSession = { cookie: `incident-desk-admin=${pending}`, csrf: '' };
    expect((await h.api(asSession, 'GET', '/admin/api/session')).status).toBe(401);

    const confirm = (token: string, headers: Record<string, string> = {}) =>
      fetch(`${h.connectorUrl}/admin/sign-in/confirm`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: acmeSession.cookie,
          ...headers,
        },
        body: new URLSearchParams({ token }),
        redirect: 'manual',
      });
    expect((await confirm('x'.repeat(43))).status).toBe(400);
    expect((await confirm(pending, { origin: 'https://evil.example' })).status).toBe(403);
    const switched = await confirm(pending, { origin: h.connectorUrl });
    expect(switched.status).toBe(303);
    const cookie = cookiesSet(switched).find((c) => c.startsWith('incident-desk-admin='))!;
    expect(cookie).toBe(`incident-desk-admin=${pending}`);
    const globexSession = { ...asSession };
    expect((await h.api(globexSession, 'GET', '/admin/api/session')).body).toMatchObject({
      subdomain: 'globex',
    });
    // the acme session it replaced is gone, and the token switches once
    expect((await h.api(acmeSession, 'GET', '/admin/api/session')).status).toBe(401);
    expect((await confirm(pending)).status).toBe(400);
  });

  it('signing in again to the same account needs no confirmation', async () => {
    const first = await h.signIn('acme', acme.adminId);
    const again = await followCallback(await h.signInCallback('acme', acme.adminId), {
      redirect: 'manual',
      cookies: [first.marker!],
    });
    expect(again.status).toBe(303);
  });

  it('an install signs the installing admin in: the sign-in’s cookie, for that account, then the admin page', async () => {
    const initech = await h.createAccount('initech');
    const before = Date.now();
    const installed = await h.install('initech', initech.adminId);
    expect(installed.status).toBe(303);
    expect(installed.response.headers.get('location')).toBe('/admin/');
    expect(installed.response.headers.get('cache-control')).toBe('no-store');
    const setCookies = installed.response.headers.getSetCookie();
    const sessionCookie = setCookies.find((c) => c.startsWith('incident-desk-admin='))!;
    expect(sessionCookie).toMatch(/^incident-desk-admin=[A-Za-z0-9_-]{43};/);
    for (const attribute of ['HttpOnly', 'SameSite=Strict', 'Path=/admin', 'Max-Age=28800'])
      expect(sessionCookie).toContain(attribute);
    const marker = setCookies.find((c) => c.startsWith('incident-desk-admin-seen='))!;
    expect(marker).toContain('SameSite=Lax');
    const cookie = sessionCookie.split(';')[0]!;
    expect(marker.split(';')[0]).toBe(`incident-desk-admin-seen=${hashOf(cookie)}`);

    // the admin page opens at once, for the installed account and its installing admin only
    const session = await h.api({ cookie, csrf: '' }, 'GET', '/admin/api/session');
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ subdomain: 'initech', userName: 'Ada Admin' });
    const row = await h.connector.db.prisma.adminSession.findUniqueOrThrow({
      where: { tokenHash: hashOf(cookie) },
    });
    expect(row.accountId).toBe(await h.accountId('initech'));
    expect(Number(row.zendeskUserId)).toBe(initech.adminId);
    expect(row.pending).toBe(false);
    // as short-lived as a sign-in's, and only its hash is stored
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 8 * 3_600_000);
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 8 * 3_600_000 - 60_000);
    expect(row.tokenHash).not.toContain(cookie.split('=')[1]!);
  });

  it('an install refused, or from a browser signed in to another account, opens no session unasked', async () => {
    const hooli = await h.createAccount('hooli');
    const byAgent = await h.install('hooli', hooli.agentId);
    expect(byAgent.status).toBe(403);
    expect(cookiesSet(byAgent.response).filter((c) => c.includes('incident-desk-admin'))).toEqual(
      [],
    );

    const acmeSession = await h.signIn('acme', acme.adminId);
    const installed = await h.install('hooli', hooli.adminId, [acmeSession.marker!]);
    expect(installed.status).toBe(200);
    expect(installed.body).toContain('signed in to the incident-desk admin page of acme');
    expect(installed.body).toContain('The installation that just finished is for hooli');
    expect(installed.body).toContain('Switch to hooli');
    expect(cookiesSet(installed.response).filter((c) => c.includes('incident-desk-admin'))).toEqual(
      [],
    );
    expect((await h.api(acmeSession, 'GET', '/admin/api/session')).body).toMatchObject({
      subdomain: 'acme',
    });
    // installed all the same: a sign-in for hooli works
    expect((await h.signIn('hooli', hooli.adminId)).cookie).toMatch(/^incident-desk-admin=/);
  });

  it('the sign-in page and the admin page carry CSP, frame-ancestors and nosniff', async () => {
    for (const url of [
      `${h.connectorUrl}/admin/sign-in`,
      `${h.connectorUrl}/admin/sign-in?subdomain=acme`,
      `${h.connectorUrl}/admin/`,
    ]) {
      const response = await fetch(url, { redirect: 'manual' });
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, url).toContain("default-src 'none'");
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options'), url).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), url).toBe('no-referrer');
    }
  });

  it('ends the session once the user is no longer an admin of the account on Zendesk', async () => {
    const session = await h.signIn('acme', acme.adminId);
    const other = await h.signIn('acme', acme.adminId);
    expect((await h.api(session, 'GET', '/admin/api/overview')).status).toBe(200);
    await control('PATCH', `/accounts/acme/users/${acme.adminId}`, { role: 'agent' });
    try {
      // Confirmed a moment ago: not asked again within the interval.
      expect((await h.api(session, 'GET', '/admin/api/overview')).status).toBe(200);
      // Five minutes later (the check's interval) the next request asks Zendesk.
      await h.connector.db.prisma.adminSession.updateMany({
        where: { tokenHash: hashOf(session.cookie) },
        data: { roleCheckedAt: new Date(Date.now() - 5 * 60 * 1000 - 1) },
      });
      const refused = await h.api(session, 'POST', '/admin/api/sign-out');
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ error: { code: 'not_admin' } });
      // every session of that user on the account is gone
      expect(await sessionRow(session)).toBeNull();
      expect(await sessionRow(other)).toBeNull();
      // and signing in again is refused while the role is gone
      const again = await followCallback(await h.signInCallback('acme', acme.adminId), {
        redirect: 'manual',
      });
      expect(again.status).toBe(403);
    } finally {
      await control('PATCH', `/accounts/acme/users/${acme.adminId}`, { role: 'admin' });
    }
    // an admin still an admin is confirmed and goes on
    const kept = await h.signIn('acme', acme.adminId);
    await h.connector.db.prisma.adminSession.updateMany({
      where: { tokenHash: hashOf(kept.cookie) },
      data: { roleCheckedAt: new Date(Date.now() - 60 * 60 * 1000) },
    });
    const checked = new Date();
    expect((await h.api(kept, 'GET', '/admin/api/overview')).status).toBe(200);
    const row = await sessionRow(kept);
    expect(row!.roleCheckedAt.getTime()).toBeGreaterThanOrEqual(checked.getTime());
  });

  it('the state cookie of a sign-in is set like the install’s', async () => {
    const start = await fetch(`${h.connectorUrl}/admin/sign-in?subdomain=acme`, {
      redirect: 'manual',
    });
    const url = new URL(start.headers.get('location')!);
    expect(stateCookieFor(url)).toBeUndefined();
    expect(start.headers.getSetCookie()[0]).toMatch(
      /^incident-desk-oauth=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600$/,
    );
  });
});

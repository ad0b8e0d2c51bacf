// The admin page as an admin uses it, in Chromium: the built page (apps/admin, built here into a
// temporary folder), "Sign in with Zendesk" through the sandbox's approval page, back on /admin/
// with every section rendered, hostile strings shown as text, and no CSP violation; a first run
// completed from the page alone, and a French admin's page in French, both checked with axe-core.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_API_KEY, DEMO_PARENT_CLIENT_ID } from '@incident-desk/incident-sandbox';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CSP } from '../src/admin';
import { startAdminHarness, type AdminHarness, type SignedIn } from './admin-harness';
import { WAIT_STALL_MS } from './support/eventually';
import { chromiumPath } from '../../../scripts/chromium';

const ADMIN_APP = fileURLToPath(new URL('../../admin', import.meta.url));
const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** axe-core in the page (evaluated, so the page's CSP does not apply): serious and critical ones. */
async function seriousViolations(page: Page): Promise<{ rule: string; targets: string[] }[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (options: unknown) => Promise<unknown> } })
      .axe;
    const result = (await axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    })) as { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    return result.violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
    }));
}

/** A browser page already holding an admin session the harness signed in. */
async function pageSignedIn(browser: Browser, connectorUrl: string, session: SignedIn) {
  const [name, value] = session.cookie.split(';')[0]!.split('=') as [string, string];
  const context = await browser.newContext();
  await context.addCookies([
    { name, value, url: `${connectorUrl}/admin/`, httpOnly: true, sameSite: 'Strict' },
  ]);
  return context.newPage();
}

describe('admin page in Chromium', () => {
  let h: AdminHarness;
  let browser: Browser;
  let distDir: string;
  let acme: { adminId: number; agentId: number };

  beforeAll(async () => {
    distDir = mkdtempSync(path.join(tmpdir(), 'incident-desk-admin-dist-'));
    await build({
      configFile: path.join(ADMIN_APP, 'vite.config.ts'),
      logLevel: 'silent',
      build: { outDir: distDir, emptyOutDir: true },
    });
    // The sandbox as localhost, the connector as 127.0.0.1: two sites, as Zendesk and the connector are.
    h = await startAdminHarness('pglite', { adminDistDir: distDir, sandboxHost: 'localhost' });
    acme = await h.createAccount('acme');
    expect((await h.install('acme', acme.adminId)).status).toBe(303);
    const accountId = await h.accountId('acme');
    await h.connector.db.prisma.reconciliationEntry.create({
      data: { accountId, ticketId: 77n, reason: 'duplicate', detail: HOSTILE },
    });
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
    if (distDir) rmSync(distDir, { recursive: true, force: true });
  });

  it('signs in through Zendesk and shows every section', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      const first = await page.goto(`${h.connectorUrl}/admin/`);
      expect(first?.headers()['content-security-policy']).toBe(ADMIN_CSP);
      await page.waitForSelector('#signed-out');
      // Garden's base styles: the system font, never the browser's default serif
      expect(await page.evaluate('getComputedStyle(document.body).fontFamily')).toMatch(
        /^system-ui/,
      );
      // an address that is no Zendesk's is refused beside the field, and the input keeps it
      await page.fill('input[name="subdomain"]', 'https://acme.example.com');
      await page.click('#sign-in-with-zendesk');
      expect(await page.textContent('#subdomain-error')).toContain('not a Zendesk subdomain');
      expect(await page.inputValue('input[name="subdomain"]')).toBe('https://acme.example.com');
      // a pasted Zendesk address is read as its subdomain
      await page.fill('input[name="subdomain"]', 'https://acme.zendesk.com/agent');
      await page.click('#sign-in-with-zendesk');
      await page.waitForSelector('#allow');
      expect(page.url()).toContain(`${h.sandboxUrl}/_z/acme/oauth/authorizations/new`);
      expect(new URL(page.url()).searchParams.get('scope')).toBe('users:read webhooks:read');
      await page.selectOption('#user_id', String(acme.adminId));
      await page.click('#allow');

      await page.waitForSelector('#signed-in', { timeout: WAIT_STALL_MS });
      expect(page.url()).toBe(`${h.connectorUrl}/admin/`);
      expect(await page.textContent('#signed-in')).toContain('Ada Admin, admin of acme');
      // a new account: the first-run checklist comes first, each step with what to do next
      expect(await page.getAttribute('main section:first-of-type', 'id')).toBe('first-run');
      expect(await page.getAttribute('[data-testid="step-zendesk"]', 'data-state')).toBe('done');
      expect(await page.getAttribute('[data-testid="step-incident_key"]', 'data-state')).toBe(
        'todo',
      );
      expect(await page.textContent('[data-testid="next-setup"]')).toContain(
        'incident API key first',
      );
      expect(await page.textContent('[data-testid="next-sidebar"]')).toContain('open any ticket');
      // a wrong key is refused beside its field, and not saved
      await page.fill('#first-run input[name="apiKey"]', 'not-a-real-key');
      await page.fill('#first-run input[name="clientId"]', 'cl_demo_parent');
      await page.click('#first-run #save-connection');
      expect(await page.textContent('#apiKey-error', { timeout: WAIT_STALL_MS })).toContain(
        'refused this API key',
      );
      expect(await page.textContent('#api-key-state')).toContain('Not set');
      for (const id of [
        'first-run',
        'connection',
        'health',
        'setup',
        'dead-letters',
        'reconciliation',
        'settings',
      ]) {
        expect(await page.isVisible(`#${id}`), id).toBe(true);
      }
      expect(await page.textContent('[data-testid="connection-state"]')).toContain('Token valid');
      expect(await page.textContent('#api-key-state')).toContain('Not set');

      // An attacker-controlled string is text, not markup.
      const entry = page.locator('[data-testid="reconciliation-entry"]');
      expect(await entry.textContent()).toContain(HOSTILE);
      expect(await entry.locator('img').count()).toBe(0);
      expect(
        await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned),
      ).toBeUndefined();

      // No sidebar secret any more (Zendesk signs the sidebar's page): nothing to rotate.
      expect(await page.locator('#sidebar-secret, #rotate-secret').count()).toBe(0);

      // The session cookie is HttpOnly: the page's script cannot read it.
      expect(
        await page.evaluate(
          () => (globalThis as unknown as { document: { cookie: string } }).document.cookie,
        ),
      ).toBe('');
      expect(problems.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
      // no invalid `pattern` regular expression logged on load any more
      expect(problems.filter((text) => /pattern/i.test(text))).toEqual([]);

      await page.click('#sign-out');
      await page.waitForSelector('#signed-out');
    } finally {
      await page.close();
    }
  });

  it('an install from another site lands on the admin page signed in, no second sign-in', async () => {
    const initech = await h.createAccount('initech');
    const page = await browser.newPage();
    try {
      await page.goto(`${h.connectorUrl}/install?subdomain=initech`);
      await page.waitForSelector('#allow');
      expect(page.url()).toContain(`${h.sandboxUrl}/_z/initech/oauth/authorizations/new`);
      await page.selectOption('#user_id', String(initech.adminId));
      await page.click('#allow');
      await page.waitForSelector('#signed-in', { timeout: WAIT_STALL_MS });
      expect(page.url()).toBe(`${h.connectorUrl}/admin/`);
      expect(await page.textContent('#signed-in')).toContain('Ada Admin, admin of initech');
      expect(await page.locator('#signed-out').count()).toBe(0);
      const session = (await page.context().cookies(`${h.connectorUrl}/admin/`)).find(
        (cookie) => cookie.name === 'incident-desk-admin',
      );
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin' });
    } finally {
      await page.close();
    }
  });

  it('a first run completes from the page alone: the key saved, setup runs by itself, both webhooks confirmed; only the sidebar is left', async () => {
    const umbrella = await h.createAccount('umbrella');
    expect((await h.install('umbrella', umbrella.adminId)).status).toBe(303);
    const page = await pageSignedIn(
      browser,
      h.connectorUrl,
      await h.signIn('umbrella', umbrella.adminId),
    );
    try {
      await page.goto(`${h.connectorUrl}/admin/`);
      await page.waitForSelector('#first-run', { timeout: WAIT_STALL_MS });
      expect(await seriousViolations(page)).toEqual([]);
      await page.fill('#first-run input[name="apiKey"]', DEMO_API_KEY);
      await page.fill('#first-run input[name="clientId"]', DEMO_PARENT_CLIENT_ID);
      await page.click('#first-run #save-connection');
      // nothing else is pressed: the save queues setup, setup asks both services to test their
      // webhooks, and the page looks again until the checklist shows it
      for (const step of ['incident_key', 'setup', 'webhooks']) {
        await page.waitForSelector(`[data-testid="step-${step}"][data-state="done"]`, {
          timeout: 4 * WAIT_STALL_MS,
        });
      }
      const left = await page.$$eval('#first-run li[data-state]', (items) =>
        items
          .filter((item) => item.getAttribute('data-state') !== 'done')
          .map((item) => item.getAttribute('data-testid')),
      );
      expect(left).toEqual(['step-sidebar']);
      expect(await page.textContent('#first-run')).toContain('4 of 5 steps done.');
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('a French admin sees the page in French from the first paint, lang="fr"', async () => {
    const created = await fetch(`${h.sandboxUrl}/_sandbox/accounts/acme/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Amélie Admin',
        email: 'amelie@acme.example',
        role: 'admin',
        locale: 'fr-FR',
      }),
    });
    const amelie = ((await created.json()) as { user: { id: number } }).user.id;
    const page = await pageSignedIn(browser, h.connectorUrl, await h.signIn('acme', amelie));
    // every text the page ever shows, from its first mutation on
    await page.addInitScript({
      content: `window.__seen = [];
        new MutationObserver(() => {
          const text = document.body ? document.body.innerText.trim() : '';
          if (text) window.__seen.push({ lang: document.documentElement.lang, text });
        }).observe(document, { childList: true, subtree: true, characterData: true });`,
    });
    try {
      await page.goto(`${h.connectorUrl}/admin/`);
      await page.waitForSelector('#signed-in', { timeout: WAIT_STALL_MS });
      expect(await page.evaluate('document.documentElement.lang')).toBe('fr');
      expect(await page.textContent('h1')).toBe('Administration d’incident-desk');
      expect(await page.textContent('#signed-in')).toContain(
        'Connecté en tant que Amélie Admin, admin de acme',
      );
      expect(await page.textContent('#connection-title')).toBe('Connexion à Zendesk');
      // the checklist's sentences come from the connector, in the session's language
      expect(await page.textContent('[data-testid="step-sidebar"]')).toContain(
        'Barre latérale installée',
      );
      const seen = (await page.evaluate('window.__seen')) as { lang: string; text: string }[];
      expect(seen.length).toBeGreaterThan(0);
      // the first text painted is already French, under lang="fr"
      for (const shown of seen) {
        expect(shown.lang).toBe('fr');
        expect(shown.text).not.toContain('incident-desk admin');
        expect(shown.text).not.toContain('Signed in as');
      }
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('/install and its result pages are styled within their strict CSP', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    try {
      for (const url of [
        `${h.connectorUrl}/install`,
        `${h.connectorUrl}/install?subdomain=not%20one`,
        `${h.connectorUrl}/oauth/callback?error=access_denied`,
      ]) {
        await page.goto(url);
        expect(await page.evaluate('getComputedStyle(document.body).fontFamily'), url).toMatch(
          /^system-ui/,
        );
        expect(
          await page.evaluate("getComputedStyle(document.querySelector('main')).maxWidth"),
          url,
        ).toBe('560px');
      }
      expect(await page.locator('#error').count()).toBe(1);
      // the refusals answer 400 and 403 by design; nothing else is logged, no CSP violation
      expect(problems.filter((text) => !/status of 40[03]/.test(text))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

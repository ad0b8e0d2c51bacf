// The admin page as an admin uses it, in Chromium: the built page (apps/admin, built here into a
// temporary folder), "Sign in with Zendesk" through the sandbox's approval page, back on /admin/
// with every section rendered, hostile strings shown as text, and no CSP violation.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CSP } from '../src/admin';
import { startAdminHarness, type AdminHarness } from './admin-harness';

const CHROMIUM = '/usr/bin/chromium';
const ADMIN_APP = fileURLToPath(new URL('../../admin', import.meta.url));
const HOSTILE = '<img src=x onerror="window.__pwned=1">';

describe.skipIf(!existsSync(CHROMIUM))('admin page in Chromium', () => {
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
    expect((await h.install('acme', acme.adminId)).status).toBe(200);
    const accountId = await h.accountId('acme');
    await h.connector.db.prisma.reconciliationEntry.create({
      data: { accountId, ticketId: 77n, reason: 'duplicate', detail: HOSTILE },
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    });
  }, 120_000);
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
      await page.fill('input[name="subdomain"]', 'acme');
      await page.click('#sign-in-with-zendesk');
      await page.waitForSelector('#allow');
      expect(page.url()).toContain(`${h.sandboxUrl}/_z/acme/oauth/authorizations/new`);
      expect(new URL(page.url()).searchParams.get('scope')).toBe('users:read');
      await page.selectOption('#user_id', String(acme.adminId));
      await page.click('#allow');

      await page.waitForSelector('#signed-in', { timeout: 15_000 });
      expect(page.url()).toBe(`${h.connectorUrl}/admin/`);
      expect(await page.textContent('#signed-in')).toContain('Ada Admin, admin of acme');
      for (const id of [
        'connection',
        'health',
        'setup',
        'sidebar-secret',
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

      // Rotating the secret shows it once.
      await page.click('#rotate-secret');
      const secret = await page.textContent('#new-secret', { timeout: 10_000 });
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

      // The session cookie is HttpOnly: the page's script cannot read it.
      expect(
        await page.evaluate(
          () => (globalThis as unknown as { document: { cookie: string } }).document.cookie,
        ),
      ).toBe('');
      expect(problems.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);

      await page.click('#sign-out');
      await page.waitForSelector('#signed-out');
    } finally {
      await page.close();
    }
  }, 60_000);
});

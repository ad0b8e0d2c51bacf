// The install as an admin does it: in Chromium, from the connector's form through Zendesk's
// approval page back to the callback.
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getConnectionStatus } from '../src/accounts/credential-store';
import { startAccountsHarness, type AccountsHarness } from './accounts-harness';
import { chromiumPath } from '../../../scripts/chromium';

describe('marketplace install in Chromium', () => {
  let h: AccountsHarness;
  let browser: Browser;
  let acme: { adminId: number; agentId: number };

  beforeAll(async () => {
    h = await startAccountsHarness('pglite');
    acme = await h.createAccount('acme');
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
  });

  it('form, approval, callback: the account is connected', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${h.connectorUrl}/install`);
      await page.fill('#subdomain', 'acme');
      await page.click('#continue');
      await page.waitForSelector('#allow');
      expect(page.url()).toContain(`${h.sandboxUrl}/_z/acme/oauth/authorizations/new`);
      await page.selectOption('#user_id', String(acme.adminId));
      await page.click('#allow');
      await page.waitForSelector('#success');
      expect(page.url().startsWith(`${h.connectorUrl}/oauth/callback?`)).toBe(true);
      expect(await page.textContent('#success')).toContain('users:read');

      const account = await h.db.prisma.account.findUniqueOrThrow({
        where: { zendeskSubdomain: 'acme' },
      });
      expect((await getConnectionStatus(h.db, account.id)).state).toBe('active');

      // Going back and replaying the callback does not install twice.
      await page.reload();
      expect(await page.textContent('#error')).toContain('already used');
    } finally {
      await page.close();
    }
  });

  it('Deny shows a clear page and stores nothing', async () => {
    const page = await browser.newPage();
    try {
      await h.createAccount('denied');
      await page.goto(`${h.connectorUrl}/install?subdomain=denied`);
      await page.click('#deny');
      await page.waitForSelector('#error');
      expect(await page.textContent('h1')).toContain('not authorised');
      expect(await page.textContent('#error')).toContain('access_denied');
      expect(await h.db.prisma.account.count({ where: { zendeskSubdomain: 'denied' } })).toBe(0);
    } finally {
      await page.close();
    }
  });
});

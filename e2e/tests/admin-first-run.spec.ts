// The admin page's first run for a new account, in Chromium against the
// running stack: /install with a pasted Zendesk address, Zendesk's approval, landing on the admin
// page signed in by the install (no second sign-in), then the checklist at the top: a wrong key refused beside its field, the right one
// saved with its client's name, which starts setup, and both webhooks confirmed by setup's own
// test deliveries. A
// screenshot of each state is kept (test-results/…), and axe-core finds no serious or critical
// violation in any of them.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/accessibility';
import { requestJson } from './support/http';
import { keepScreenshot } from './support/scenario';
import { stackUrls } from './support/stack-config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The incident sandbox's seeded organisation (packages/incident-sandbox/src/state/seed.ts).
const API_KEY = 'sandbox-demo-key';
const CLIENT_ID = 'cl_demo_parent';

test.beforeAll(() => {
  // The connector serves apps/admin/dist; like the sidebar's, it is built when missing only.
  if (existsSync(path.join(root, 'apps/admin/dist/index.html'))) return;
  const build = spawnSync('npm', ['run', 'build', '-w', '@incident-desk/admin'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('building the admin page failed');
});

async function approveAs(page: Page, userId: number) {
  await page.waitForSelector('#allow');
  await page.selectOption('#user_id', String(userId));
  await page.click('#allow');
}

test('a new account is guided from install to a working setup', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const subdomain = `firstrun${Date.now().toString(36)}`;
  const created = await requestJson<{ users: { id: number }[] }>(
    'POST',
    `${stackUrls.zendesk}/_sandbox/accounts`,
    {
      subdomain,
      users: [
        { name: 'Fay First', email: `admin@${subdomain}.example`, role: 'admin' },
        { name: 'Abe Agent', email: `agent@${subdomain}.example`, role: 'agent' },
      ],
    },
  );
  const adminId = created.users[0]!.id;

  // /install: styled, and a pasted Zendesk address is read as the subdomain
  await page.goto(`${stackUrls.connector}/install`);
  expect(await page.evaluate('getComputedStyle(document.body).fontFamily')).toMatch(/^system-ui/);
  await keepScreenshot(page, testInfo, '01-install-form');
  await expectAccessible(page, 'the install form');
  await page.fill('#subdomain', `https://${subdomain}.zendesk.com/agent`);
  await page.click('#continue');
  await approveAs(page, adminId);

  // the install lands on the admin page, signed in by the install itself: no second sign-in
  await expect(page).toHaveURL(`${stackUrls.connector}/admin/`);
  await expect(page.locator('#signed-in')).toContainText(`Fay First, admin of ${subdomain}`);
  await expect(page.locator('#signed-out')).toHaveCount(0);
  await keepScreenshot(page, testInfo, '02-installed-signed-in');

  // the checklist comes first; the key is the next step
  const checklist = page.locator('#first-run');
  await expect(checklist).toBeVisible();
  await expect(page.locator('main section').first()).toHaveId('first-run');
  await expect(page.getByTestId('step-zendesk')).toHaveAttribute('data-state', 'done');
  await expect(page.getByTestId('step-incident_key')).toHaveAttribute('data-state', 'todo');
  await expect(page.getByTestId('next-sidebar')).toContainText('open any ticket');
  await keepScreenshot(page, testInfo, '03-checklist-new-account');
  await expectAccessible(page, "a new account's checklist");

  // a wrong key is refused beside its field and not saved
  await checklist.locator('input[name="apiKey"]').fill('not-a-real-key');
  await checklist.locator('input[name="clientId"]').fill(CLIENT_ID);
  await checklist.locator('#save-connection').click();
  await expect(page.locator('#apiKey-error')).toContainText('refused this API key');
  await expect(page.getByTestId('step-incident_key')).toHaveAttribute('data-state', 'todo');
  await keepScreenshot(page, testInfo, '04-wrong-key');
  await expectAccessible(page, 'a refused API key');

  // the right key is saved, with its client's name, and setup starts by itself
  await checklist.locator('input[name="apiKey"]').fill(API_KEY);
  await checklist.locator('#save-connection').click();
  await expect(page.getByTestId('step-incident_key')).toHaveAttribute('data-state', 'done');
  await expect(page.getByTestId('step-incident_key')).toContainText(CLIENT_ID);
  await keepScreenshot(page, testInfo, '05-key-saved');

  // nothing else pressed: the page follows setup to its end
  await expect(page.getByTestId('step-setup')).toHaveAttribute('data-state', 'done', {
    timeout: 60_000,
  });
  await keepScreenshot(page, testInfo, '06-setup-done');
  await expectAccessible(page, 'the checklist after setup');

  // setup asked both services to test their webhooks: Zendesk's signed test delivery and the
  // incident service's webhook.test confirm both directions, no ticket needed; only the sidebar,
  // which an agent opening a ticket confirms, is left
  await expect(page.getByTestId('step-webhooks')).toHaveAttribute('data-state', 'done', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('step-sidebar')).not.toHaveAttribute('data-state', 'done');
  await keepScreenshot(page, testInfo, '07-webhooks-confirmed');
  await expectAccessible(page, 'the checklist with both webhooks confirmed');
});

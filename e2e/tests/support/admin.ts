// The admin page as the demo's admin reaches it: the built page (built when missing, as the
// sidebar's is), then "Sign in with Zendesk" as Ada Admin of `demo`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { stackUrls } from './stack-config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export function buildAdminIfMissing(): void {
  if (existsSync(path.join(root, 'apps/admin/dist/index.html'))) return;
  const build = spawnSync('npm', ['run', 'build', '-w', '@incident-desk/admin'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('building the admin page failed');
}

export async function signInAsDemoAdmin(page: Page): Promise<void> {
  await page.goto(`${stackUrls.connector}/admin/`);
  await page.fill('input[name="subdomain"]', 'demo');
  await page.click('#sign-in-with-zendesk');
  await page.waitForSelector('#allow');
  const adminId = await page
    .locator('#user_id option', { hasText: 'Ada Admin' })
    .getAttribute('value');
  await page.selectOption('#user_id', adminId!);
  await page.click('#allow');
  await expect(page.locator('#signed-in')).toContainText('Ada Admin');
}

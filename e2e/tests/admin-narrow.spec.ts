// The admin page on a phone-sized screen (390x844): signed in as the demo's admin, every section
// loaded (the analytics' charts and tables too), nothing wider than the screen, so the page never
// scrolls sideways. The whole page is kept as e2e/artifacts/admin-390.png (git-ignored).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { buildAdminIfMissing, signInAsDemoAdmin } from './support/admin';
import { screenshotTo } from './support/scenario';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const WIDTH = 390;

test.beforeAll(() => {
  mkdirSync(ARTIFACTS, { recursive: true });
  buildAdminIfMissing();
});

test.use({ viewport: { width: WIDTH, height: 844 } });

test('the admin page fits a 390 px screen: no horizontal scroll', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAsDemoAdmin(page);
  for (const id of ['connection', 'health', 'setup', 'dead-letters', 'reconciliation', 'settings'])
    await expect(page.locator(`section#${id}`)).toBeVisible();
  // the analytics come from the incident service after the page: their charts and tables too
  await expect(page.getByTestId('analytics-charts')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('waiting-table')).toBeAttached();

  // the page's width, and (to say what to fix) the elements past its right edge that no box of
  // their own scrolls (a wide table may scroll inside its box)
  const overflow = () =>
    page.evaluate(() => {
      const root = document.scrollingElement!;
      const scrolledInside = (element: Element) => {
        for (let box = element.parentElement; box && box !== document.body; box = box.parentElement)
          if (getComputedStyle(box).overflowX !== 'visible') return true;
        return false;
      };
      const wider = Array.from(document.querySelectorAll('main *'))
        .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 0.5)
        .filter((element) => !scrolledInside(element))
        .slice(0, 5)
        .map((element) => `${element.tagName.toLowerCase()}#${element.id}`);
      return { scrollWidth: root.scrollWidth, wider };
    });
  await expect
    .poll(
      async () => {
        const { scrollWidth, wider } = await overflow();
        return scrollWidth <= WIDTH ? wider : [`scrollWidth ${scrollWidth}`, ...wider];
      },
      { message: 'nothing on the admin page is wider than 390 px' },
    )
    .toEqual([]);
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(
    WIDTH,
  );
  await screenshotTo(page, path.join(ARTIFACTS, 'admin-390.png'));
});

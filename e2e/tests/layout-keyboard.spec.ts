import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { advanceIncident, getIncident } from './support/incident-sandbox';
import {
  expectInWorkspaceView,
  keepScreenshot,
  linkedTicket,
  openSidebar,
  pressDialogButton,
  setPanelWidth,
  startAction,
} from './support/scenario';

const LONG_THREAT =
  'https://a-very-long-subdomain-name-for-layout-checks.width-test.example/' +
  'login/verify/account/with/a/really/long/path?session=0123456789abcdef0123456789abcdef';

async function frameWidths(page: Page) {
  const frame = page.frames().find((f) => f.url().includes('/assets/iframe.html'));
  if (!frame) throw new Error('no sidebar frame');
  return frame.evaluate(() => ({
    viewport: document.documentElement.clientWidth,
    content: document.documentElement.scrollWidth,
    main: document.querySelector('main')?.getBoundingClientRect().width ?? 0,
  }));
}

/** Presses Tab until the focused element in the frame has this accessible text. */
async function tabTo(page: Page, frame: FrameLocator, text: string, max = 30): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (
      (
        (await frame
          .locator(':focus')
          .textContent()
          .catch(() => '')) ?? ''
      ).trim() === text
    )
      return;
    await page.keyboard.press('Tab');
  }
  await expect(frame.locator(':focus')).toHaveText(text);
}

test('the sidebar fits a 320 px panel and follows a wider one, without horizontal scrolling', async ({
  page,
}, testInfo) => {
  const { ticketId, incidentId } = await linkedTicket('Layout at 320 px', LONG_THREAT);
  // the card's longest button: approving, with what it costs
  await advanceIncident(incidentId, 'case_building');
  await advanceIncident(incidentId, 'approval_required');
  const frame = await openSidebar(page, ticketId);
  await expect(frame.getByTestId('status')).toContainText('Approval required');

  await setPanelWidth(page, 320);
  await expect.poll(async () => (await frameWidths(page)).viewport).toBe(320);
  const narrow = await frameWidths(page);
  expect(narrow.content).toBeLessThanOrEqual(narrow.viewport);
  expect(narrow.main).toBeLessThanOrEqual(320);
  // the long threat wraps inside the panel instead of widening it
  await expect(frame.getByTestId('subject')).toContainText('width-test[.]example');
  // the approve button's label wraps inside the card: whole, never cut by an ellipsis
  const approve = frame.getByRole('button', { name: /^Approve takedown · uses/ });
  const fits = await approve.evaluate((button) => ({
    whole: button.scrollWidth <= button.clientWidth,
    inside:
      button.getBoundingClientRect().right <=
      (button.closest('[data-testid="status-card"]')?.getBoundingClientRect().right ?? 0),
  }));
  expect(fits).toEqual({ whole: true, inside: true });
  await keepScreenshot(page, testInfo, 'sidebar-320px');

  await setPanelWidth(page, 560);
  await expect.poll(async () => (await frameWidths(page)).viewport).toBe(560);
  const wide = await frameWidths(page);
  expect(wide.content).toBeLessThanOrEqual(wide.viewport);
  expect(wide.main).toBeGreaterThan(500);
});

test('an action is reached, confirmed and cancelled with the keyboard alone', async ({
  page,
}, testInfo) => {
  const { ticketId, incidentId } = await linkedTicket(
    'Keyboard only',
    'https://keyboard.action-test.example/login',
    // reported for monitoring: the card offers a takedown request (one it was not reported for)
    'incident_submit_monitor',
  );
  const frame = await openSidebar(page, ticketId);
  await frame.getByRole('button', { name: 'Refresh', exact: true }).focus();

  // the actions that are not the next step are in the "More actions" menu
  await tabTo(page, frame, 'More actions');
  await page.keyboard.press('Enter');
  await expect(frame.locator(':focus')).toHaveText('Request takedown');
  await page.keyboard.press('Enter');
  const dialog = frame.getByRole('dialog');
  const focusInDialog = frame.locator('[role="dialog"]:focus, [role="dialog"] :focus');
  await expect(dialog).toBeVisible();
  // the dialog holds the focus; Escape closes it and the focus goes back to the button
  await expect(focusInDialog).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(frame.locator(':focus')).toHaveText('More actions');
  expect((await getIncident(incidentId)).status).toBe('pending_review');

  await page.keyboard.press('Enter');
  await expect(frame.locator(':focus')).toHaveText('Request takedown');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  // Tab stays inside the dialog until it reaches the confirmation
  await expect(focusInDialog).toHaveCount(1);
  for (let i = 0; i < 6; i += 1) {
    if (((await focusInDialog.textContent().catch(() => '')) ?? '').trim() === 'Request takedown')
      break;
    await page.keyboard.press('Tab');
    await expect(focusInDialog).toHaveCount(1);
  }
  await expect(focusInDialog).toHaveText('Request takedown');
  await page.keyboard.press('Enter');
  await expect(frame.getByTestId('action-feedback')).toContainText('Takedown requested.');
  await expect(frame.getByTestId('status')).toContainText('Case building');
  expect((await getIncident(incidentId)).status).toBe('case_building');
  await keepScreenshot(page, testInfo, 'keyboard-after');
});

test('a confirmation opens where the agent is looking, however far the workspace is scrolled', async ({
  page,
}) => {
  const { ticketId, incidentId } = await linkedTicket(
    'Dialog in sight',
    'https://in-sight.action-test.example/login',
  );
  await page.setViewportSize({ width: 1280, height: 520 });
  const frame = await openSidebar(page, ticketId);
  // scroll the workspace so that the frame's top is well above what the page shows, with the
  // status card's actions still in sight (Zendesk's apps panel scrolls the frame the same way)
  const frameBox = await page.locator('#zaf-app-frame').boundingBox();
  const actionsBox = await frame.getByTestId('actions').boundingBox();
  expect(frameBox && actionsBox).toBeTruthy();
  const scrolledPast = Math.max(0, actionsBox!.y - frameBox!.y - 40);
  await page.evaluate((y) => window.scrollTo(0, y), frameBox!.y + scrolledPast);
  expect(scrolledPast).toBeGreaterThan(60);

  await startAction(frame, 'Mark safe');
  const dialog = frame.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expectInWorkspaceView(frame, dialog);
  await pressDialogButton(frame, 'Cancel');
  await expect(dialog).toBeHidden();
  expect((await getIncident(incidentId)).status).toBe('pending_review');
});

test('Tab reaches every control of a linked card, at 320 px', async ({ page }) => {
  const { ticketId, incidentId } = await linkedTicket(
    'Every control by keyboard',
    'https://every-control.action-test.example/login',
  );
  await advanceIncident(incidentId, 'case_building');
  await advanceIncident(incidentId, 'approval_required');
  const frame = await openSidebar(page, ticketId);
  await setPanelWidth(page, 320);
  await expect(frame.getByRole('button', { name: /^Approve takedown/ })).toBeVisible();
  // every interactive control the agent sees, each given a name the walk below can report
  const controls = await frame.locator('body').evaluate((body) =>
    Array.from(
      body.querySelectorAll<HTMLElement>(
        'button, a[href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"])',
      ),
    )
      .filter((node) => node.getClientRects().length > 0 && !node.matches(':disabled'))
      .map((node, index) => {
        node.dataset.control = String(index);
        return `${node.tagName.toLowerCase()} "${(node.getAttribute('aria-label') ?? node.textContent ?? '').trim()}"`;
      }),
  );
  expect(controls.length).toBeGreaterThan(3);

  await frame.locator('[data-control="0"]').focus();
  const reached = new Set<string>();
  for (let i = 0; i < controls.length * 2 && reached.size < controls.length; i += 1) {
    const focused = await frame
      .locator('body')
      .evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.control ?? null);
    if (focused === null) break; // the focus left the sidebar
    reached.add(focused);
    await page.keyboard.press('Tab');
  }
  const missed = controls.filter((_, index) => !reached.has(String(index)));
  expect(missed, 'controls Tab never reaches').toEqual([]);
});

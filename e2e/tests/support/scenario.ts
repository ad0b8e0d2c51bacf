// Steps several specs share: a ticket linked by the connector, the agent workspace with the
// sidebar frame, and a screenshot kept as an artefact of the run.
import {
  expect,
  type FrameLocator,
  type Locator,
  type Page,
  type TestInfo,
} from '@playwright/test';
import { createTicket, incidentIdOf, updateTicket } from './zendesk-sandbox';

/**
 * The real path to a linked ticket: a ticket with a Threat URL is tagged incident_submit (for
 * takedown; incident_submit_monitor for monitoring), the sandbox's trigger calls the connector's
 * webhook, the connector reports it and writes Incident ID.
 */
export async function linkedTicket(
  subject: string,
  threat: string,
  submitTag: 'incident_submit' | 'incident_submit_monitor' = 'incident_submit',
): Promise<{ ticketId: number; incidentId: string }> {
  const ticketId = await createTicket(subject, threat);
  await updateTicket(ticketId, { additional_tags: [submitTag] });
  let incidentId: string | null = null;
  await expect
    .poll(async () => (incidentId = await incidentIdOf(ticketId)), {
      message: `the connector links ticket ${ticketId}`,
      timeout: 30_000,
    })
    .toBeTruthy();
  return { ticketId, incidentId: incidentId! };
}

/** The agent workspace for a ticket and the sidebar app's frame, once its incident view is there. */
export async function openSidebar(page: Page, ticketId: number): Promise<FrameLocator> {
  await page.goto(`/agent/tickets/${ticketId}`);
  const frame = page.frameLocator('#zaf-app-frame');
  await expect(frame.getByTestId('status-card')).toBeVisible();
  return frame;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Starts an incident action from the status card: its one button when it is the action that fits
 * the status (the approve button also says what it costs, hence the prefix match), else the item
 * of the "More actions" menu.
 */
export async function startAction(frame: FrameLocator, button: string): Promise<void> {
  const actions = frame.getByTestId('actions');
  const direct = actions.getByRole('button', { name: new RegExp(`^${escapeRegExp(button)}`) });
  if ((await direct.count()) > 0) {
    await direct.click();
    return;
  }
  await actions.getByRole('button', { name: 'More actions', exact: true }).click();
  await frame.getByRole('menuitem', { name: button, exact: true }).click();
}

/** Opens a collapsed detail section below the status card. */
export async function expandSection(frame: FrameLocator, name: string): Promise<void> {
  const trigger = frame.getByTestId('details').getByRole('button', { name, exact: true });
  if ((await trigger.getAttribute('aria-expanded')) !== 'true') await trigger.click();
  await expect(trigger).toHaveAttribute('aria-expanded', 'true');
}

/**
 * The workspace with the whole sidebar frame. The viewport is first made as tall as the page:
 * captures beyond the viewport (full page or element) can lay the cross-origin frame out again
 * at the wrong width.
 */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await screenshotTo(page, testInfo.outputPath(`${name}.png`));
}

/** The whole page at `file`, laid out as `keepScreenshot` does. */
export async function screenshotTo(page: Page, file: string): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const width = page.viewportSize()?.width ?? 1280;
  await page.setViewportSize({ width, height: Math.min(Math.max(height, 1000), 4000) });
  await page.screenshot({ path: file });
}

/**
 * Waits until an element of the sidebar frame (a dialog) lies wholly inside what the workspace
 * page shows. The frame is as tall as its content and the page scrolls it, so the frame's own top
 * can be out of sight: the dialog must open where the agent is looking, with no scrolling.
 */
export async function expectInWorkspaceView(frame: FrameLocator, element: Locator): Promise<void> {
  const page = frame.owner().page();
  await expect
    .poll(
      async () => {
        const box = await element.boundingBox();
        const height = await page.evaluate(() => window.innerHeight);
        return box !== null && box.y >= 0 && box.y + box.height <= height;
      },
      { message: 'the dialog lies inside the workspace viewport' },
    )
    .toBe(true);
}

/** Presses an action's button in the sidebar, then its confirmation in the dialog that opens. */
export async function runConfirmedAction(
  frame: FrameLocator,
  button: string,
  confirm: string,
): Promise<void> {
  await startAction(frame, button);
  await pressDialogButton(frame, confirm);
  await expect(frame.getByRole('dialog')).toBeHidden();
}

/** Presses a button of the sidebar's open dialog, once the dialog is in sight. */
export async function pressDialogButton(frame: FrameLocator, name: string): Promise<void> {
  const dialog = frame.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expectInWorkspaceView(frame, dialog);
  await dialog.getByRole('button', { name, exact: true }).click();
}

/** Sets the width of the workspace's apps panel, which the sidebar frame fills. */
export async function setPanelWidth(page: Page, width: number): Promise<void> {
  await page.evaluate((px) => {
    const panel = document.getElementById('apps-panel');
    if (panel) panel.style.width = `${px}px`;
  }, width);
}

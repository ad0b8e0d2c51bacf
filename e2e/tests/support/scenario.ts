// Steps several specs share: a ticket linked by the connector, the agent workspace with the
// sidebar frame, and a screenshot kept as an artefact of the run.
import { expect, type FrameLocator, type Page, type TestInfo } from '@playwright/test';
import { createTicket, incidentIdOf, updateTicket } from './zendesk-sandbox';

/**
 * The real path to a linked ticket: a ticket with a Threat URL is tagged incident_submit, the
 * sandbox's trigger calls the connector's webhook, the connector reports it and writes Incident ID.
 */
export async function linkedTicket(
  subject: string,
  threat: string,
): Promise<{ ticketId: number; incidentId: string }> {
  const ticketId = await createTicket(subject, threat);
  await updateTicket(ticketId, { additional_tags: ['incident_submit'] });
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
  await expect(frame.getByTestId('overview')).toBeVisible();
  return frame;
}

/**
 * The workspace with the whole sidebar frame. The viewport is first made as tall as the page:
 * captures beyond the viewport (full page or element) can lay the cross-origin frame out again
 * at the wrong width.
 */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const width = page.viewportSize()?.width ?? 1280;
  await page.setViewportSize({ width, height: Math.min(Math.max(height, 1000), 4000) });
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
}

/** Presses an action's button in the sidebar, then its confirmation in the dialog that opens. */
export async function runConfirmedAction(
  frame: FrameLocator,
  button: string,
  confirm: string,
): Promise<void> {
  await frame.getByTestId('actions').getByRole('button', { name: button, exact: true }).click();
  const dialog = frame.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: confirm, exact: true }).click();
  await expect(dialog).toBeHidden();
}

import { expect, test } from '@playwright/test';
import { keepScreenshot, pressDialogButton } from './support/scenario';
import { createTicket, incidentIdOf } from './support/zendesk-sandbox';

// Issue 18 through the whole stack: the connector finds the threats in a ticket's conversation, one
// click reports one, and a second ticket naming the same threat is offered the existing incident.
test('a threat found in the conversation is reported, and the next ticket naming it is sent to the ticket that follows it', async ({
  page,
}, testInfo) => {
  const host = `parcel-hold-${Date.now()}.threats-test.example`;
  const body = `I got a text from +44 7700 900123 linking to hxxps[:]//${host.replaceAll('.', '[.]')}/pay. Screenshot attached: proof.png`;
  const first = await createTicket('Parcel held? Suspicious text', undefined, body);

  await page.goto(`/agent/tickets/${first}`);
  const frame = page.frameLocator('#zaf-app-frame');
  const list = frame.getByTestId('threats-found');
  await expect(list).toContainText('Threats found in this ticket');
  const items = list.getByTestId('found-threat');
  await expect(items).toHaveCount(2);
  const url = items.filter({ hasText: 'URL' });
  await expect(url).toContainText(`hxxps[:]//${host.replaceAll('.', '[.]')}/pay`);
  await expect(url).toContainText('comment 1 (public, end user)');
  await expect(list.locator('a')).toHaveCount(0);
  await keepScreenshot(page, testInfo, 'threats-found');

  await url.getByRole('button', { name: 'Report for takedown' }).click();
  await pressDialogButton(frame, 'Report');
  await expect.poll(() => incidentIdOf(first), { timeout: 30_000 }).toBeTruthy();

  const second = await createTicket('Same text again', undefined, `Also got https://${host}/pay`);
  await page.goto(`/agent/tickets/${second}`);
  const secondUrl = frame.getByTestId('found-threat').filter({ hasText: 'URL' });
  await secondUrl.getByRole('button', { name: 'Report for takedown' }).click();
  const notice = frame.getByTestId('duplicate-notice');
  await expect(notice).toContainText(`linked to ticket #${first}`);
  await keepScreenshot(page, testInfo, 'threats-duplicate');
  // one ticket follows an incident: the agent is offered that ticket, never a second link
  await expect(notice.getByRole('button', { name: `Open ticket #${first}` })).toBeVisible();
  await expect(notice.getByRole('button', { name: 'Link this ticket instead' })).toHaveCount(0);
  await expect(notice.getByRole('button', { name: 'Report anyway' })).toBeVisible();
  expect(await incidentIdOf(second)).toBeFalsy();
});

import { expect, test } from '@playwright/test';
import { keepScreenshot, pressDialogButton } from './support/scenario';
import { createTicket, incidentIdOf } from './support/zendesk-sandbox';

// Through the whole stack: the connector finds the threats in a ticket's conversation, the
// best one is chosen and reported, and a second ticket naming the same threat is sent to the ticket
// that follows the incident before any report.
test('a threat found in the conversation is reported, and the next ticket naming it is sent to the ticket that follows it', async ({
  page,
}, testInfo) => {
  const host = `parcel-hold-${Date.now()}.threats-test.example`;
  const body = `I got a text from +44 7700 900123 linking to hxxps[:]//${host.replaceAll('.', '[.]')}/pay. Screenshot attached: proof.png`;
  const first = await createTicket('Parcel held? Suspicious text', undefined, body);

  await page.goto(`/agent/tickets/${first}`);
  const frame = page.frameLocator('#zaf-app-frame');
  const card = frame.getByTestId('not-reported');
  await expect(card).toContainText('Threats found in this ticket');
  const items = card.getByTestId('found-threat');
  await expect(items).toHaveCount(2);
  // the best takedown candidate first, chosen: the URL before the phone number
  const url = items.nth(0);
  await expect(url).toContainText(`URLhxxps[:]//${host.replaceAll('.', '[.]')}/pay`);
  await expect(url).toContainText('comment 1 (public, end user)');
  await expect(card.getByRole('radio').first()).toBeChecked();
  await expect(card.locator('a')).toHaveCount(0);
  await keepScreenshot(page, testInfo, 'threats-found');

  await card.getByRole('button', { name: 'Report for takedown' }).click();
  await pressDialogButton(frame, 'Report');
  await expect.poll(() => incidentIdOf(first), { timeout: 30_000 }).toBeTruthy();
  const reference = await incidentIdOf(first);

  const second = await createTicket('Same text again', undefined, `Also got https://${host}/pay`);
  await page.goto(`/agent/tickets/${second}`);
  const notice = frame.getByTestId('duplicate-notice');
  // known before any report: the ticket that follows it, by the reference the report answered
  await expect(notice).toContainText(`Incident ${reference} is followed by ticket #${first}.`);
  await keepScreenshot(page, testInfo, 'threats-duplicate');
  // one ticket follows an incident: the agent is offered that ticket, never a second link
  await expect(notice.getByRole('button', { name: `Open ticket #${first}` })).toBeVisible();
  await expect(notice.getByRole('button', { name: /^Follow/ })).toHaveCount(0);
  await expect(frame.getByRole('button', { name: 'Report for takedown' })).toHaveCount(0);
  await notice.getByRole('button', { name: 'Report as a new incident anyway' }).click();
  await expect(frame.getByRole('button', { name: 'Report for takedown' })).toBeVisible();
  expect(await incidentIdOf(second)).toBeFalsy();
});

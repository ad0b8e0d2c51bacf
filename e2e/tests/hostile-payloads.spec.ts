import { expect, test } from '@playwright/test';
import { advanceIncident, seedIncident } from './support/incident-sandbox';
import { keepScreenshot, openSidebar } from './support/scenario';
import { createTicket, setIncidentId } from './support/zendesk-sandbox';

const HOSTILE_URL = 'https://evil.example/<script>window.__pwned=1</script>';
const HOSTILE_HISTORY = '<img src=x onerror="window.__pwned=1">';

test('script and HTML in url, subject and history render as inert text', async ({
  page,
}, testInfo) => {
  // A social incident keeps its subject and url byte for byte (a domain report would be URL-encoded),
  // so the raw payload reaches the sidebar; the ticket carries the same value as its Threat URL.
  const incident = await seedIncident({ incidentType: 'social', subject: HOSTILE_URL });
  expect(incident.subject).toBe(HOSTILE_URL);
  await advanceIncident(incident.id, 'case_building', HOSTILE_HISTORY);
  const ticketId = await createTicket('Hostile payloads', HOSTILE_URL);
  await setIncidentId(ticketId, incident.id);

  const frame = await openSidebar(page, ticketId);

  const subject = frame.getByTestId('subject');
  await expect(subject).toContainText(
    'hxxps[:]//evil[.]example/<script>window[.]__pwned=1</script>',
  );
  await expect(subject.locator('a')).toHaveCount(0);
  await expect(frame.getByTestId('history-entry').first()).toContainText(HOSTILE_HISTORY);

  // Nothing of the payload became markup.
  await expect(frame.locator('img[src="x"]')).toHaveCount(0);
  await expect(frame.locator('img[onerror]')).toHaveCount(0);
  await expect(frame.locator('script', { hasText: '__pwned' })).toHaveCount(0);
  const appFrame = page.frames().find((f) => f.url().includes('/assets/iframe.html'));
  expect(appFrame, 'the sidebar app frame').toBeDefined();
  expect(await appFrame!.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  await keepScreenshot(page, testInfo, 'hostile-payloads');
});

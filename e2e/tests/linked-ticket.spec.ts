import { expect, test } from '@playwright/test';
import { advanceIncident } from './support/incident-sandbox';
import { expandSection, keepScreenshot, linkedTicket, openSidebar } from './support/scenario';

test('a ticket linked by the connector shows its incident in the sidebar', async ({
  page,
}, testInfo) => {
  const { ticketId, incidentId } = await linkedTicket(
    'Phishing page for our bank',
    'https://login.phish-linked.example/verify',
  );
  await advanceIncident(incidentId, 'case_building', 'Analyst gathered the evidence');

  const frame = await openSidebar(page, ticketId);

  const overview = frame.getByTestId('status-card');
  await expect(overview.getByTestId('status')).toContainText('Case building');
  await expect(overview.getByTestId('status')).toContainText('An analyst is reviewing');
  await expect(overview.getByTestId('subject')).toContainText(
    'hxxps[:]//login[.]phish-linked[.]example/verify',
  );
  await expect(overview).toContainText(incidentId);

  await expandSection(frame, 'History');
  const history = frame.getByTestId('history-entry');
  await expect(history).toHaveCount(2);
  // Newest first.
  await expect(history.nth(0)).toContainText('Analyst gathered the evidence');
  await expect(history.nth(1)).toContainText('Incident reported for takedown');
  // Defanged, the subject is never a live link.
  await expect(overview.getByTestId('subject').locator('a')).toHaveCount(0);

  await keepScreenshot(page, testInfo, 'linked-ticket');
});

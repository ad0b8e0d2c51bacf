// The marketplace listing's screenshots, taken from the demo as an agent sees it: the Zendesk
// sandbox's agent workspace (product bar, ticket tab, properties, conversation, the apps panel with
// incident-desk's header) at 1024x768, the size Zendesk's validation accepts. `npm run package`
// puts them in the app's assets as screenshot-0.png, -1 and -2; the listing says where they
// come from.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { advanceIncident } from './support/incident-sandbox';
import { linkedTicket } from './support/scenario';
import { createTicket } from './support/zendesk-sandbox';

const MARKETPLACE_DIR = fileURLToPath(new URL('../artifacts/marketplace', import.meta.url));
const SIZE = { width: 1024, height: 768 };
const MAX_BYTES = 500 * 1024;

test.use({ viewport: SIZE });

async function keepListingShot(page: Page, index: number): Promise<void> {
  mkdirSync(MARKETPLACE_DIR, { recursive: true });
  const file = path.join(MARKETPLACE_DIR, `screenshot-${index}.png`);
  await page.screenshot({ path: file });
  const png = readFileSync(file);
  // IHDR: width and height as the first fields after the 8-byte signature and chunk header
  expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual(SIZE);
  expect(statSync(file).size).toBeLessThanOrEqual(MAX_BYTES);
}

/**
 * Opens the ticket once the connector has written what the sidebar shows (the Incident Status
 * field and its note), so the page and the sidebar tell the same story, then waits for the sidebar
 * and the app's logo.
 */
async function showTicket(
  page: Page,
  ticketId: number,
  text: string | RegExp,
  incidentStatus?: string,
): Promise<void> {
  await page.goto(`/agent/tickets/${ticketId}`);
  if (incidentStatus) {
    const field = page.locator('#ticket-custom-fields .field', { hasText: 'Incident Status' });
    await expect(field.locator('dd')).toHaveText(incidentStatus, { timeout: 30_000 });
    await page.reload();
  }
  await expect(page.frameLocator('#zaf-app-frame').locator('body')).toContainText(text);
  await expect(page.locator('#zaf-app-frame')).toHaveAttribute('data-resized', 'true');
  await expect
    .poll(() => page.locator('img.app-logo').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
}

test('the listing screenshots: an incident waiting for approval, one taken down, threats found in a ticket', async ({
  page,
}) => {
  const waiting = await linkedTicket(
    'Fake login page impersonating our bank',
    'https://secure-login.bank-verify.example/account',
  );
  await advanceIncident(waiting.incidentId, 'case_building', 'Evidence collected: phishing kit');
  await advanceIncident(
    waiting.incidentId,
    'approval_required',
    'Case ready: the hosting provider accepts takedowns for this kit',
  );
  await showTicket(page, waiting.ticketId, waiting.incidentId, 'Approval required');
  await keepListingShot(page, 0);

  const done = await linkedTicket(
    'Lookalike domain sending invoices',
    'https://invoices-payments.example/pay',
  );
  await advanceIncident(done.incidentId, 'case_building', 'Registrar abuse report drafted');
  await advanceIncident(done.incidentId, 'takedown_in_progress', 'Takedown sent to the registrar');
  await advanceIncident(done.incidentId, 'takedown_success', 'The registrar suspended the domain');
  await showTicket(page, done.ticketId, done.incidentId, 'Taken down');
  await keepListingShot(page, 1);

  const fresh = await createTicket(
    'Customer forwarded a suspicious text message',
    undefined,
    'Got this text from +44 7700 900456: "Your parcel is on hold, pay the fee at ' +
      'hxxps[:]//parcel-redelivery[.]example/track". Is it you?',
  );
  await showTicket(page, fresh, /Threats found in this ticket[\s\S]*parcel-redelivery/);
  await keepListingShot(page, 2);
});

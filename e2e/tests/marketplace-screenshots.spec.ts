// The marketplace listing's screenshots, taken from the demo as an agent sees it: the workspace at
// 1024x768 (Zendesk's required size) with the sidebar beside the ticket. `npm run package` puts
// them in the app's assets as screenshot-0.png, -1 and -2.
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

async function showTicket(page: Page, ticketId: number, text: string | RegExp): Promise<void> {
  await page.goto(`/agent/tickets/${ticketId}`);
  await expect(page.frameLocator('#zaf-app-frame').locator('body')).toContainText(text);
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
  await showTicket(page, waiting.ticketId, waiting.incidentId);
  await keepListingShot(page, 0);

  const done = await linkedTicket(
    'Lookalike domain sending invoices',
    'https://invoices-payments.example/pay',
  );
  await advanceIncident(done.incidentId, 'case_building', 'Registrar abuse report drafted');
  await advanceIncident(done.incidentId, 'takedown_in_progress', 'Takedown sent to the registrar');
  await advanceIncident(done.incidentId, 'takedown_success', 'The registrar suspended the domain');
  await showTicket(page, done.ticketId, done.incidentId);
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

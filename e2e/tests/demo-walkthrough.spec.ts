// The demo as a person plays it from the "Demo ready" text: only the pages, no API or control API
// call. A customer writes in through the help center form, the agent fills the Threat URL and tags
// the ticket in the workspace's ticket form, the analyst moves the incident in the incident
// sandbox's console, the agent approves in the sidebar, replies with an attachment, and the notes
// and the sidebar follow. A screenshot of each step goes to e2e/artifacts/demo-walkthrough/.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { runConfirmedAction, screenshotTo } from './support/scenario';
import { stackUrls } from './support/stack-config';

const artifacts = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../artifacts/demo-walkthrough',
);

let stepNumber = 0;
async function step(page: Page, name: string): Promise<void> {
  stepNumber += 1;
  await screenshotTo(
    page,
    path.join(artifacts, `${String(stepNumber).padStart(2, '0')}-${name}.png`),
  );
}

test('the whole loop is playable in the browser, through the demo pages only', async ({ page }) => {
  test.setTimeout(240_000);
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  const threat = `https://walkthrough-${Date.now()}.phish-demo.example/login`;
  const consoleUrl = `${stackUrls.incident}/_sandbox/console/`;

  // 1. A customer writes in through the help center's request form, with the message attached.
  await page.goto(`${stackUrls.zendesk}/hc/requests/new`);
  await page.getByLabel('Your name').fill('Casey Customer');
  await page.getByLabel('Your email address').fill('casey@customer.example');
  await page.getByLabel('Subject').fill('A fake login page of yours');
  await page.getByLabel('Description').fill(`This page asked for my password: ${threat}`);
  await page.getByLabel('Attachments').setInputFiles({
    name: 'phishing-email.eml',
    mimeType: 'message/rfc822',
    buffer: Buffer.from(`From: security@phish-demo.example\n\nSign in at ${threat}\n`),
  });
  await step(page, 'customer-request-form');
  await page.getByRole('button', { name: 'Submit' }).click();
  const submitted = page.locator('#request-submitted');
  await expect(submitted).toContainText(/Your request #\d+ was submitted/);
  const ticketId = Number(/#(\d+)/.exec((await submitted.textContent()) ?? '')?.[1]);
  await step(page, 'customer-request-submitted');

  // 2. The agent opens it in the workspace: fills the Threat URL, tags it incident_submit, Submit.
  await submitted.getByRole('link', { name: 'Open it in the agent workspace' }).click();
  await expect(page.locator('#ticket-subject')).toHaveText('A fake login page of yours');
  await expect(page.locator('#ticket-conversation')).toContainText('phishing-email.eml');
  const sidebar = page.frameLocator('#zaf-app-frame');
  await page.getByLabel('Threat URL').fill(threat);
  await page.locator('#add-tags').fill('incident_submit');
  await step(page, 'agent-fills-threat-and-tags');
  await page.getByRole('button', { name: 'Submit' }).click();
  // the tag fires the trigger; the connector may already have reported and swapped it for
  // incident_linked by the time the page shows the tags again
  await expect(page.locator('#ticket-tags')).toContainText(/incident_submit|incident_linked/);

  // The connector reports it and writes the Incident ID field; the panel follows live.
  const incidentField = page.locator('#ticket-custom-fields .field', { hasText: 'Incident ID' });
  await expect(incidentField.locator('dd')).not.toBeEmpty({ timeout: 30_000 });
  const incidentId = (await incidentField.locator('dd').textContent())?.trim() ?? '';
  expect(incidentId).not.toBe('');
  // no reload: the app stayed loaded across the save, as in Zendesk, and follows the field's change
  const overview = sidebar.getByTestId('status-card');
  await expect(overview).toBeVisible({ timeout: 20_000 });
  await expect(overview.getByTestId('status')).toContainText('Pending review');
  await step(page, 'agent-sees-the-incident');

  // 3. The analyst finds it in the console and moves it to case building, then approval.
  await page.goto(consoleUrl);
  await expect(page.locator('#transition-graph')).toContainText('approval_required');
  await step(page, 'analyst-console');
  await page.goto(
    `${stackUrls.incident}/_sandbox/console/incidents/${encodeURIComponent(incidentId)}`,
  );
  await expect(page.locator('#incident-status')).toHaveText('pending_review');
  await expect(page.locator('#incident-subject')).toContainText('walkthrough-');
  await step(page, 'analyst-incident');
  await page.locator('#advance-case_building').click();
  await expect(page.locator('#incident-status')).toHaveText('case_building');
  await page.getByLabel('History message (optional)').fill('Evidence complete; please approve');
  await page.locator('#advance-approval_required').click();
  await expect(page.locator('#incident-status')).toHaveText('approval_required');
  await step(page, 'analyst-asks-for-approval');

  // 4. Back in the workspace, the notes have arrived and the agent approves in the sidebar.
  await page.goto(`${stackUrls.zendesk}/agent/tickets/${ticketId}`);
  await expect(page.locator('#ticket-conversation')).toContainText('Approval required', {
    timeout: 30_000,
  });
  await expect(overview.getByTestId('status')).toContainText('Approval required', {
    timeout: 20_000,
  });
  await step(page, 'agent-sees-approval-required');
  await runConfirmedAction(sidebar, 'Approve takedown', 'Approve');
  await expect(overview.getByTestId('status')).toContainText('Takedown ready');
  await step(page, 'agent-approved');

  // 5. A public reply with an attachment travels to the incident as a comment and evidence.
  await page.getByLabel('Public reply').check();
  await page.locator('#comment-body').fill('Here is a screenshot of the page as well.');
  await page.getByLabel('Attachments').setInputFiles({
    name: 'screenshot.png',
    mimeType: 'image/png',
    buffer: Buffer.from('89504e470d0a1a0a', 'hex'),
  });
  await step(page, 'agent-replies-with-attachment');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.locator('#ticket-conversation')).toContainText(
    'Here is a screenshot of the page as well.',
  );

  // 6. The analyst sees the reply, takes the site down; the note and the sidebar follow.
  const incidentPage = `${stackUrls.incident}/_sandbox/console/incidents/${encodeURIComponent(incidentId)}`;
  await page.goto(incidentPage);
  await expect(page.locator('#incident-status')).toHaveText('takedown_ready');
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.locator('fieldset', { hasText: 'From the client' }).textContent();
      },
      { message: 'the reply and its attachment reach the incident', timeout: 30_000 },
    )
    .toMatch(/Here is a screenshot of the page as well\.[\s\S]*screenshot\.png/);
  await page.locator('#advance-takedown_in_progress').click();
  await expect(page.locator('#incident-status')).toHaveText('takedown_in_progress');
  await page.locator('#advance-takedown_success').click();
  await expect(page.locator('#incident-status')).toHaveText('takedown_success');
  await expect(
    page.locator('section', { hasText: 'Webhook deliveries of this incident' }),
  ).toContainText('incident.status_changed');
  await step(page, 'analyst-takedown-success');

  await page.goto(`${stackUrls.zendesk}/agent/tickets/${ticketId}`);
  await expect(page.locator('#ticket-conversation')).toContainText('Taken down', {
    timeout: 30_000,
  });
  await expect(overview.getByTestId('status')).toContainText('Taken down', {
    timeout: 20_000,
  });
  await step(page, 'agent-sees-takedown-success');
});

// The admin page's failed syncs on the demo stack, made the way they happen:
// a ticket reported with a threat that is no threat (a failed sync of the ticket side), and a
// public reply the incident service refuses (a failed comment forward). Each is listed with its
// ticket and what Retry will do; Retry runs it again, with its progress, and the letter leaves the
// page once it went through. axe-core finds no serious or critical violation; screenshots go to e2e/artifacts/admin/.
// The third kind, a background job that failed outright, is a setup that outruns its time limit
// on every attempt (Zendesk answering too slowly): listed, then run again by Retry.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './support/accessibility';
import { buildAdminIfMissing, signInAsDemoAdmin } from './support/admin';
import { clearFault, getIncident, injectFault } from './support/incident-sandbox';
import { linkedTicket, screenshotTo } from './support/scenario';
import {
  clearZendeskFault,
  createTicket,
  incidentIdOf,
  injectZendeskFault,
  updateTicket,
} from './support/zendesk-sandbox';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts/admin');

test.beforeAll(() => {
  mkdirSync(artifacts, { recursive: true });
  buildAdminIfMissing();
});

/** Reloads the admin page until `locator` matches `count` elements. */
async function reloadUntil(
  page: Page,
  locator: Locator,
  count: number,
  message: string,
  timeout = 45_000,
): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.reload();
        await page.locator('#dead-letters').waitFor();
        return locator.count();
      },
      { message, timeout, intervals: [1000] },
    )
    .toBe(count);
}

/** The letter of a ticket among the failed syncs, once the page (reloaded) shows it. */
async function letterOf(page: Page, testId: string, ticketId: number): Promise<Locator> {
  const letter = page
    .locator('#dead-letters')
    .getByTestId(testId)
    .filter({ hasText: `Ticket #${ticketId}` });
  await reloadUntil(page, letter, 1, `a ${testId} letter for ticket ${ticketId}`);
  return letter;
}

async function goneAfterReload(page: Page, letter: Locator, what: string) {
  await reloadUntil(page, letter, 0, what);
}

test('a failed ticket sync is listed with its ticket, and Retry runs it again', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const ticketId = await createTicket('Dead letter: not a threat', 'just some words, no threat');
  await updateTicket(ticketId, { additional_tags: ['incident_submit'] });
  await signInAsDemoAdmin(page);
  const letter = await letterOf(page, 'sync-failure', ticketId);
  await expect(letter.getByRole('link', { name: `Ticket #${ticketId}` })).toHaveAttribute(
    'href',
    new RegExp(`/agent/tickets/${ticketId}$`),
  );
  await expect(letter.getByRole('button', { name: 'Retry' })).toBeVisible();
  await letter.scrollIntoViewIfNeeded();
  await screenshotTo(page, path.join(artifacts, 'dead-letters-01-sync-failure.png'));
  await expectAccessible(page, 'a failed ticket sync');

  // Retry runs the ticket's report job again: the connector removed incident_submit with its note
  // when it refused the threat, so the job ends without a report and the letter leaves the page
  // (the agent fixes the threat and adds the tag again to report it)
  // (the retried list, above the letters, is written once the retry was accepted; the letter
  // itself, with its progress, may already have left the refreshed list by then)
  await letter.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('retried').first()).toContainText(`Ticket #${ticketId}: retried`);
  await screenshotTo(page, path.join(artifacts, 'dead-letters-02-sync-failure-retried.png'));
  await goneAfterReload(page, letter, 'the retried failure leaves the page');
  expect(await incidentIdOf(ticketId)).toBeNull();
});

test('a failed comment forward is listed with its ticket and incident, and Retry forwards it', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const { ticketId, incidentId } = await linkedTicket(
    'Dead letter: forward refused',
    'https://dead-letter-forward.example/login',
  );
  const fault = await injectFault({
    method: 'POST',
    path: '/v1/incident/:id/comment',
    kind: 'status',
    status: 422,
    message: 'comment refused (test)',
  });
  const reply = `A reply the service refuses first ${Date.now()}`;
  try {
    await updateTicket(ticketId, { comment: { body: reply, public: true } });
    await signInAsDemoAdmin(page);
    const letter = await letterOf(page, 'failed-forward', ticketId);
    await expect(letter).toContainText(/incident \S+/);
    await expect(letter.getByRole('button', { name: 'Retry' })).toBeVisible();
    await letter.scrollIntoViewIfNeeded();
    await screenshotTo(page, path.join(artifacts, 'dead-letters-03-failed-forward.png'));
    await expectAccessible(page, 'a failed comment forward');

    await clearFault(fault.id);
    await letter.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByTestId('retried').first()).toContainText(`ticket #${ticketId}: retried`);
    await screenshotTo(page, path.join(artifacts, 'dead-letters-04-failed-forward-retried.png'));
    await expect
      .poll(
        async () =>
          (await getIncident(incidentId)).history.some((entry) => entry.message.includes(reply)),
        { message: 'the reply reaches the incident', timeout: 45_000 },
      )
      .toBe(true);
    await goneAfterReload(page, letter, 'the forwarded reply leaves the page');
  } finally {
    await clearFault(fault.id).catch(() => undefined);
  }
});

test('a setup that outruns its time limit on every attempt is listed as a failed job, and Retry runs it again', async ({
  page,
}) => {
  // three attempts of 15 s (the e2e stack's SETUP_JOB_TIMEOUT_SECONDS), 1 s apart
  test.setTimeout(180_000);
  await signInAsDemoAdmin(page);
  const fault = await injectZendeskFault({
    method: 'GET',
    path: '/api/v2/ticket_fields*',
    kind: 'latency',
    latency_ms: 25_000,
  });
  const letter = page
    .locator('#dead-letters')
    .getByTestId('failed-job')
    .filter({ hasText: 'Setup of the account failed on every attempt.' });
  try {
    await page.click('#rerun-setup');
    await reloadUntil(page, letter, 1, 'a failed setup job', 120_000);
    await expect(letter).toContainText('Retry runs setup again.');
    // each stopped run says so, rather than listing the steps its abort cut short
    await expect(page.getByTestId('setup-message')).toContainText(
      'Setup stopped: it ran past its time limit',
    );
    await letter.scrollIntoViewIfNeeded();
    await screenshotTo(page, path.join(artifacts, 'dead-letters-05-failed-job.png'));
    await expectAccessible(page, 'a failed background job');
  } finally {
    await clearZendeskFault(fault.id);
  }
  await letter.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('retried').first()).toContainText(
    'Setup of the account failed on every attempt: retried',
  );
  await screenshotTo(page, path.join(artifacts, 'dead-letters-06-failed-job-retried.png'));
  await goneAfterReload(page, letter, 'the retried setup leaves the page');
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByTestId('setup-state').textContent();
      },
      { message: 'setup done again', timeout: 30_000, intervals: [1000] },
    )
    .toContain('Done');
});

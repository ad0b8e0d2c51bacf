// The admin page's takedown analytics on the demo stack, as an admin sees
// them on first start: signed in with Zendesk as Ada Admin of `demo`, every chart drawn from the
// seeded history (the incident sandbox seeds twelve weeks of takedowns), each chart's numbers
// downloaded as CSV, one client chosen, and axe-core finding no serious or critical violation.
// Screenshots of each state go to e2e/artifacts/admin/.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/accessibility';
import { buildAdminIfMissing, signInAsDemoAdmin } from './support/admin';
import { screenshotTo } from './support/scenario';
import { stackUrls } from './support/stack-config';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts/admin');

const CHARTS = [
  'reports-per-week',
  'time-by-registrar',
  'time-by-hosting',
  'success-rate',
  'blocklist-coverage',
  'credits',
  'waiting-on-customer',
];

test.beforeAll(() => {
  mkdirSync(artifacts, { recursive: true });
  buildAdminIfMissing();
});

test('the analytics section shows the demo history in charts, each with its CSV', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAsDemoAdmin(page);
  const section = page.locator('#analytics');
  await section.scrollIntoViewIfNeeded();
  await expect(section.getByTestId('analytics-charts')).toBeVisible({ timeout: 30_000 });
  // the service answered everything: nothing partial
  await expect(section.getByTestId('analytics-partial')).toHaveCount(0);
  for (const chart of CHARTS) {
    const figure = section.getByTestId(`chart-${chart}`);
    await expect(figure.getByTestId('bar-row').first(), `${chart} has bars`).toBeVisible();
  }
  // twelve weeks of history: at least ten weeks with incidents
  expect(
    await section.getByTestId('chart-reports-per-week').getByTestId('bar-row').count(),
  ).toBeGreaterThanOrEqual(10);
  await expect(section.getByTestId('chart-time-by-registrar')).toContainText('Offshore Names Ltd');
  await expect(section.getByTestId('chart-time-by-registrar')).toContainText('median');
  await expect(section.getByTestId('blocklist-coverage-summary')).toContainText('incidents read');
  await expect(section.getByTestId('waiting-table').locator('tbody tr').first()).toBeVisible();
  await screenshotTo(page, path.join(artifacts, 'analytics-01-all-clients.png'));
  await expectAccessible(page, 'the admin page with the analytics section');

  // a chart's CSV, downloaded as the browser does
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByTestId('csv-reports-per-week').click(),
  ]);
  expect(download.suggestedFilename()).toBe('incident-desk-reports-per-week.csv');
  const saved = path.join(artifacts, 'reports-per-week.csv');
  await download.saveAs(saved);
  const lines = readFileSync(saved, 'utf8').trim().split('\r\n');
  expect(lines[0]).toBe('week,type,outcome,incidents');
  expect(lines.length).toBeGreaterThan(10);
  expect(lines.some((line) => line.includes(',taken_down,'))).toBe(true);

  // every other chart's CSV answers with its numbers, in the signed-in session
  for (const chart of CHARTS.filter((c) => c !== 'reports-per-week')) {
    const href = await section.getByTestId(`csv-${chart}`).getAttribute('href');
    const response = await page.request.get(`${stackUrls.connector}${href}`);
    expect([chart, response.status()]).toEqual([chart, 200]);
    expect(response.headers()['content-type']).toContain('text/csv');
    expect((await response.text()).trim().split('\r\n').length, chart).toBeGreaterThan(1);
  }
  // without the session, no CSV
  const anonymous = await page.request.get(
    `${stackUrls.connector}/admin/api/analytics.csv?chart=credits`,
    { headers: { cookie: '' } },
  );
  expect(anonymous.status()).toBe(401);

  // the weekly chart by incident type
  await section.getByLabel('Stack incidents per week by').selectOption('type');
  await expect(section.getByTestId('chart-reports-per-week')).toContainText('domain');
  await screenshotTo(page, path.join(artifacts, 'analytics-02-by-type.png'));

  // one client: its numbers only, and its CSV links name it
  await section.getByLabel('Incident client').selectOption('cl_demo_bank');
  await expect(section.getByTestId('chart-success-rate')).toContainText('Demo Bank');
  await expect(section.getByTestId('chart-success-rate')).not.toContainText('Demo Retail');
  expect(await section.getByTestId('csv-credits').getAttribute('href')).toContain(
    'client=cl_demo_bank',
  );
  await screenshotTo(page, path.join(artifacts, 'analytics-03-one-client.png'));
  await expectAccessible(page, 'the analytics of one client', '#analytics');
});

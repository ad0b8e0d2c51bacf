// Every state of the sidebar an agent can meet, each checked and kept as a
// screenshot at the default width and in a 320 px apps panel, under e2e/artifacts/sidebar/, so a
// person can review the whole sidebar at a glance: each status of the lifecycle, each error
// (slow, rate limited, service unavailable, connector unreachable, not found), a duplicate caught
// before reporting, the threats found in a ticket, and the sidebar in French. States come from the
// incident sandbox's control API; the connector's own failures (unreachable, its 429) are played
// by the browser answering for it, as nothing else can make a running connector do that.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type FrameLocator, type Page, type Route } from '@playwright/test';
import { requestJson } from './support/http';
import { advanceIncident, clearFault, injectFault, seedIncident } from './support/incident-sandbox';
import { expectAccessible } from './support/accessibility';
import { expectNarrowState } from './support/narrow-state';
import { linkedTicket, openSidebar, screenshotTo, setPanelWidth } from './support/scenario';
import { stackUrls, SUBDOMAIN } from './support/stack-config';
import { createTicket, setIncidentId } from './support/zendesk-sandbox';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/sidebar/', import.meta.url));
const SIDEBAR = '#zaf-app-frame';
const DETAIL_PATH = '/v1/incident/:id';

/** Removes every fault: a fault limited by `times` may already be spent (and gone). */
const clearFaults = () => requestJson('DELETE', `${stackUrls.incident}/_sandbox/faults`);

test.beforeAll(() => mkdirSync(ARTIFACTS, { recursive: true }));

/**
 * The workspace with the sidebar, at the default width and then in a 320 px panel, where axe must
 * find no serious or critical violation.
 */
async function keepBothWidths(
  page: Page,
  name: string,
  check: (frame: FrameLocator) => Promise<void>,
): Promise<void> {
  const frame = page.frameLocator(SIDEBAR);
  await check(frame);
  await screenshotTo(page, path.join(ARTIFACTS, `${name}-default.png`));
  await setPanelWidth(page, 320);
  await check(frame);
  await expect
    .poll(() => frame.locator('body').evaluate((b) => b.scrollWidth <= b.clientWidth + 1), {
      message: `${name}: no horizontal overflow at 320 px`,
    })
    .toBe(true);
  await expectAccessible(page, `${name} at 320 px`, SIDEBAR);
  await screenshotTo(page, path.join(ARTIFACTS, `${name}-320.png`));
}

/** A ticket linked (through its Incident ID field) to an incident seeded in the given status. */
async function ticketInStatus(status: string, reason?: string): Promise<number> {
  const incident = await seedIncident({
    incidentType: 'url',
    subject: `https://${status.replace(/_/g, '-')}.states.example/login`,
    status: reason ? 'case_building' : status,
  });
  if (reason) {
    await requestJson(
      'POST',
      `${stackUrls.incident}/_sandbox/incidents/${encodeURIComponent(incident.id)}/advance`,
      { status, message: reason, waitForClient: reason, force: true },
    );
  }
  const ticketId = await createTicket(
    `Sidebar state ${status}`,
    `https://${status.replace(/_/g, '-')}.states.example/login`,
  );
  await setIncidentId(ticketId, incident.id);
  return ticketId;
}

// Each status of the lifecycle, with the label the Status drop-down and the sidebar share.
const LIFECYCLE: [status: string, label: string][] = [
  ['pending_review', 'Pending review'],
  ['case_building', 'Case building'],
  ['approval_required', 'Approval required'],
  ['takedown_ready', 'Takedown ready'],
  ['pre_weaponised', 'Monitoring'],
  ['takedown_in_progress', 'Takedown in progress'],
  ['takedown_success', 'Taken down'],
  ['takedown_attempt_failed', 'Takedown failed'],
  ['blocklisted', 'Blocklisted'],
  ['action_required', 'Action required'],
  ['closed', 'Closed'],
];

for (const [status, label] of LIFECYCLE) {
  test(`status ${status}`, async ({ page }) => {
    const reason =
      status === 'action_required' ? 'Please send the signed authorisation letter.' : undefined;
    const ticketId = await ticketInStatus(status, reason);
    await openSidebar(page, ticketId);
    await keepBothWidths(page, `status-${status}`, async (frame) => {
      await expect(frame.getByTestId('status')).toContainText(label);
      await expect(frame.getByTestId('status-sentence')).not.toBeEmpty();
      await expect(frame.getByTestId('incident-id')).toBeVisible();
      if (reason) await expect(frame.getByTestId('service-reason')).toContainText(reason);
    });
  });
}

test('the Incident Status field reads the status label in the workspace, as a Zendesk view does', async ({
  page,
}) => {
  const { ticketId, incidentId } = await linkedTicket(
    'Sidebar state status field',
    'https://status-field.states.example/login',
  );
  await advanceIncident(incidentId, 'case_building', 'Evidence collected');
  await advanceIncident(incidentId, 'approval_required', 'Ready for takedown');
  await page.goto(`/agent/tickets/${ticketId}`);
  const field = page
    .locator('.field')
    .filter({ has: page.locator('dt', { hasText: 'Incident Status' }) });
  await expect(field.locator('dd')).toHaveText('Approval required', { timeout: 30_000 });
  await expect(field.locator('dd')).toHaveAttribute(
    'data-value',
    'incident_status_approval_required',
  );
  await expect(page.locator('.tag', { hasText: 'incident_status_approval_required' })).toHaveCount(
    1,
  );
  await keepBothWidths(page, 'status-field', async (frame) => {
    await expect(frame.getByTestId('status')).toContainText('Approval required');
  });
});

test('error: the incident service is slow', async ({ page }) => {
  const ticketId = await ticketInStatus('case_building');
  const fault = await injectFault({
    method: 'GET',
    path: DETAIL_PATH,
    kind: 'latency',
    latencyMs: 8_000,
    times: 2,
  });
  expect(fault.id).toBeTruthy();
  try {
    await page.goto(`/agent/tickets/${ticketId}`);
    await keepBothWidths(page, 'error-slow', async (frame) => {
      await expect(frame.getByTestId('loading-label')).toHaveText(
        'Still waiting for the incident service; it is slow to answer.',
      );
    });
  } finally {
    await clearFaults();
  }
  await expect(page.frameLocator(SIDEBAR).getByTestId('status')).toContainText('Case building', {
    timeout: 20_000,
  });
});

for (const [name, fault, shown] of [
  [
    'error-service-rate-limited',
    // A short Retry-After: the connector honours it before giving up (a long one reads as slow).
    { kind: 'rate_limit', retryAfterSeconds: 1 },
    'The incident service is limiting requests; it will be retried in 1 second.',
  ],
  ['error-service-unavailable', { kind: 'status', status: 503 }, 'Temporarily unavailable'],
] as const) {
  test(`error: ${name.replace('error-', '').replace(/-/g, ' ')} (incident service)`, async ({
    page,
  }) => {
    const ticketId = await ticketInStatus('approval_required');
    const injected = await injectFault({ method: 'GET', path: DETAIL_PATH, ...fault });
    try {
      await page.goto(`/agent/tickets/${ticketId}`);
      await keepBothWidths(page, name, async (frame) => {
        // The incident id and the threat stay on screen beside the cause.
        await expect(frame.getByTestId('incident-unavailable')).toContainText(shown);
        await expect(frame.getByTestId('incident-id')).toBeVisible();
        await expect(frame.getByTestId('subject')).toContainText('states[.]example');
      });
    } finally {
      await clearFault(injected.id);
    }
  });
}

test('error: not found at the incident service', async ({ page }) => {
  const ticketId = await createTicket('Sidebar state not found', 'https://gone.states.example/');
  await setIncidentId(ticketId, 'inc_no_such_incident');
  await page.goto(`/agent/tickets/${ticketId}`);
  await keepBothWidths(page, 'error-not-found', async (frame) => {
    await expect(frame.getByTestId('incident-unavailable')).toContainText(
      'Not found at the incident service.',
    );
    await expect(frame.getByTestId('incident-id')).toContainText('inc_no_such_incident');
  });
});

/** The connector's answer to the ticket view, played by the browser. */
const TICKET_VIEW = /\/sidebar\/tickets\/\d+(\?|$)/;
async function answerTicketView(page: Page, answer: (route: Route) => Promise<void>) {
  await page.route(TICKET_VIEW, (route) =>
    route.request().method() === 'GET' ? answer(route) : route.fallback(),
  );
}

test('error: the connector is unreachable', async ({ page }) => {
  const ticketId = await ticketInStatus('case_building');
  await answerTicketView(page, (route) => route.abort('connectionrefused'));
  await page.goto(`/agent/tickets/${ticketId}`);
  await keepBothWidths(page, 'error-connector-unreachable', async (frame) => {
    await expect(frame.getByRole('alert').first()).toContainText(
      'The connector could not be reached',
    );
    await expect(frame.getByRole('button', { name: /retry/i }).first()).toBeVisible();
  });
  await page.unroute(TICKET_VIEW);
  await page.frameLocator(SIDEBAR).getByRole('button', { name: /retry/i }).first().click();
  await expect(page.frameLocator(SIDEBAR).getByTestId('status')).toContainText('Case building');
});

test('error: the connector is rate limited', async ({ page }) => {
  const ticketId = await ticketInStatus('case_building');
  await answerTicketView(page, (route) =>
    route.fulfill({
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '30' },
      body: JSON.stringify({
        error: { code: 'rate_limited', message: 'slow down', retryAfterSeconds: 30 },
      }),
    }),
  );
  await page.goto(`/agent/tickets/${ticketId}`);
  await keepBothWidths(page, 'error-connector-rate-limited', async (frame) => {
    await expect(frame.getByRole('alert').first()).toContainText(
      'The incident service is limiting requests. Try again in 30 seconds.',
    );
  });
});

test('duplicate: the threat is already an incident linked to another ticket', async ({ page }) => {
  const threat = 'https://already-reported.states.example/login';
  const first = await linkedTicket('Sidebar state duplicate (first)', threat);
  const second = await createTicket('Sidebar state duplicate (second)', threat);
  await page.goto(`/agent/tickets/${second}`);
  await keepBothWidths(page, 'duplicate', async (frame) => {
    const notice = frame.getByTestId('duplicate-notice');
    await expect(notice).toContainText(`is followed by ticket #${first.ticketId}`);
    // named by the reference the report answered, never by the service's own id
    await expect(notice).toContainText(`Incident ${first.incidentId}`);
    await expect(
      notice.getByRole('button', { name: `Open ticket #${first.ticketId}` }),
    ).toBeVisible();
  });
});

test('threats found in the conversation', async ({ page }) => {
  const ticketId = await createTicket(
    'Sidebar state threats found',
    undefined,
    'Hi, this mail sent me to hxxps[:]//pay-now[.]states[.]example/verify and asked me to call ' +
      '+14155550123. Their server was 203.0.113.9, the sender billing@pay-now.states.example.',
  );
  await page.goto(`/agent/tickets/${ticketId}`);
  await keepBothWidths(page, 'threats-found', async (frame) => {
    const found = frame.getByTestId('found-threat');
    await expect(found.filter({ hasText: 'pay-now[.]states[.]example/verify' })).toHaveCount(1);
    await expect(found.filter({ hasText: '+14155550123' })).toHaveCount(1);
    await expect(found.filter({ hasText: '203[.]0[.]113[.]9' })).toHaveCount(1);
  });
});

/** A new agent of the demo account: `locale` for a French one, `role_type` 1 for a light agent. */
async function newAgent(name: string, extra: { locale?: string; role_type?: number }) {
  const { user } = await requestJson<{ user: { id: number } }>(
    'POST',
    `${stackUrls.zendesk}/_sandbox/accounts/${SUBDOMAIN}/users`,
    {
      name,
      email: `${name.split(' ')[0]!.toLowerCase()}-${Date.now()}@${SUBDOMAIN}.example`,
      role: 'agent',
      ...extra,
    },
  );
  return user.id;
}

/** In the sidebar frame, from its first render on: the page's language and text at each change. */
async function recordRenders(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (!location.pathname.endsWith('/iframe.html')) return;
    const renders: { lang: string; text: string }[] = [];
    Object.assign(window, { __renders: renders });
    const record = () => {
      const text = document.body?.innerText.trim() ?? '';
      if (text && renders.at(-1)?.text !== text)
        renders.push({ lang: document.documentElement.lang, text });
    };
    new MutationObserver(record).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
}

function rendersOf(page: Page): Promise<{ lang: string; text: string }[]> {
  const frame = page.frames().find((f) => f.url().includes('/assets/iframe.html'));
  if (!frame) throw new Error('no sidebar frame');
  return frame.evaluate(() => (window as unknown as { __renders: [] }).__renders);
}

// English words the sidebar shows while loading and on a card awaiting approval
const ENGLISH = ['Loading', 'Refresh', 'Updated', 'Approval required', 'Incident ID', 'Ticket #'];

test('French: an agent whose Zendesk locale is fr, in French from the first render', async ({
  page,
}) => {
  const fanny = await newAgent('Fanny Agent', { locale: 'fr' });
  const ticketId = await ticketInStatus('approval_required');
  await recordRenders(page);
  await page.goto(`/agent/tickets/${ticketId}?as=${fanny}`);
  await keepBothWidths(page, 'french', async (frame) => {
    await expect(frame.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(frame.getByTestId('status')).toContainText('Approbation requise');
  });
  const renders = await rendersOf(page);
  expect(renders.length).toBeGreaterThan(0);
  expect(renders[0]!.lang, 'the first render is in French').toBe('fr');
  for (const render of renders) {
    expect(render.lang).toBe('fr');
    for (const english of ENGLISH) expect(render.text, render.text).not.toContain(english);
  }
  const frame = page.frameLocator(SIDEBAR);
  await expectNarrowState(page, {
    name: 'french-first-render',
    firstScreen: [
      frame.getByTestId('status'),
      frame.getByRole('button', { name: /^Approuver le retrait/ }),
    ],
  });
});

test('a light agent: the status card offers no action, with one quiet line instead', async ({
  page,
}) => {
  const light = await newAgent('Lea Light', { role_type: 1 });
  const ticketId = await ticketInStatus('approval_required');
  await page.goto(`/agent/tickets/${ticketId}?as=${light}`);
  const frame = page.frameLocator(SIDEBAR);
  const card = frame.getByTestId('status-card');
  await expect(card.getByTestId('status')).toContainText('Approval required');
  await expect(card.getByTestId('read-only')).toContainText('your Zendesk role cannot act on it');
  await expect(card.getByTestId('actions')).toHaveCount(0);
  await expect(card.getByRole('button', { name: /^Approve takedown/ })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'More actions', exact: true })).toHaveCount(0);
  await expectNarrowState(page, {
    name: 'light-agent',
    firstScreen: [card.getByTestId('status'), card.getByTestId('read-only')],
  });
});

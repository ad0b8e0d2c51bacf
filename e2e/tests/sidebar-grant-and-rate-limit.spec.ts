// Two states an agent meets when something behind the sidebar stops answering, through the whole
// stack and kept as screenshots in e2e/artifacts/ (git-ignored):
// - sidebar-grant-revoked.png: an account installed by OAuth whose grant an admin revoked in
//   Zendesk. The signed page route cannot read the account any more and the sidebar's own error
//   view says that an administrator must reconnect, on every open.
// - sidebar-rate-limited-45s.png: the incident service answers 429 with Retry-After 45. The
//   connector does not wait that out: the sidebar says at once why and when it tries again, beside
//   the incident id and the threat.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { requestJson } from './support/http';
import { clearFault, injectFault, seedIncident } from './support/incident-sandbox';
import { screenshotTo } from './support/scenario';
import { stackUrls } from './support/stack-config';
import { createTicket, setIncidentId } from './support/zendesk-sandbox';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const SIDEBAR = '#zaf-app-frame';
// The e2e connector's OAuth client (ZENDESK_CLIENT_ID's default) and the incident sandbox's
// seeded organisation (packages/incident-sandbox/src/state/seed.ts).
const OAUTH_CLIENT = 'incident_desk_local';
const API_KEY = 'sandbox-demo-key';
const CLIENT_ID = 'cl_demo_parent';

test.beforeAll(() => mkdirSync(ARTIFACTS, { recursive: true }));

interface NewAccount {
  subdomain: string;
  adminId: number;
  agentId: number;
  endUserId: number;
}

async function zendeskAccount(): Promise<NewAccount> {
  const subdomain = `grant${Date.now().toString(36)}`;
  const { users } = await requestJson<{ users: { id: number }[] }>(
    'POST',
    `${stackUrls.zendesk}/_sandbox/accounts`,
    {
      subdomain,
      users: [
        { name: 'Gail Admin', email: `admin@${subdomain}.example`, role: 'admin' },
        { name: 'Gus Agent', email: `agent@${subdomain}.example`, role: 'agent' },
        { name: 'Eve Customer', email: `eve@${subdomain}.example`, role: 'end-user' },
      ],
    },
  );
  const [admin, agent, endUser] = users as [{ id: number }, { id: number }, { id: number }];
  return { subdomain, adminId: admin.id, agentId: agent.id, endUserId: endUser.id };
}

/**
 * The admin installs through OAuth in the browser and lands on the admin page signed in; the
 * incident connection is saved and setup runs through the admin API, as its page would.
 */
async function installAndSetUp(page: Page, account: NewAccount): Promise<void> {
  await page.goto(`${stackUrls.connector}/install?subdomain=${account.subdomain}`);
  await page.waitForSelector('#allow');
  await page.selectOption('#user_id', String(account.adminId));
  await page.click('#allow');
  await expect(page.locator('#signed-in')).toContainText('Gail Admin');

  const admin = `${stackUrls.connector}/admin/api`;
  const session = await page.request.get(`${admin}/session`);
  expect(session.ok()).toBe(true);
  const { csrfToken } = (await session.json()) as { csrfToken: string };
  const headers = { 'x-csrf-token': csrfToken, origin: stackUrls.connector };
  const saved = await page.request.put(`${admin}/incident-connection`, {
    headers,
    data: { apiKey: API_KEY, clientId: CLIENT_ID },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const setup = await page.request.post(`${admin}/setup/rerun`, { headers });
  expect([202, 409]).toContain(setup.status());
  await expect
    .poll(
      async () => {
        const overview = await page.request.get(`${admin}/overview`);
        return ((await overview.json()) as { setup: { state: string } }).setup.state;
      },
      { message: 'setup of the new account succeeds', timeout: 60_000, intervals: [1000] },
    )
    .toBe('succeeded');
}

test('a grant revoked in Zendesk: the sidebar says an administrator must reconnect', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const account = await zendeskAccount();
  await installAndSetUp(page, account);
  const { ticket } = await requestJson<{ ticket: { id: number } }>(
    'POST',
    `${stackUrls.zendesk}/_sandbox/accounts/${account.subdomain}/tickets`,
    {
      requester_id: account.endUserId,
      subject: 'Is this link real?',
      body: `They sent me https://grant-${account.subdomain}.example/login`,
    },
  );
  const ticketPage = `${stackUrls.zendesk}/_z/${account.subdomain}/agent/tickets/${ticket.id}?as=${account.agentId}`;

  // while the grant holds, the sidebar opens as usual
  await page.goto(ticketPage);
  const frame = page.frameLocator(SIDEBAR);
  await expect(frame.getByTestId('not-reported')).toBeVisible({ timeout: 30_000 });

  // an admin revokes incident-desk's OAuth access in Zendesk: access and refresh tokens end
  const revoked = await requestJson<{ revoked: number }>(
    'POST',
    `${stackUrls.zendesk}/_sandbox/accounts/${account.subdomain}/oauth-grants/revoke`,
    { client_id: OAUTH_CLIENT },
  );
  expect(revoked.revoked).toBeGreaterThan(0);

  // the first open finds out, and every later one is told the same
  for (const open of ['first', 'again']) {
    await page.goto(ticketPage);
    const failure = frame.getByTestId('page-failure');
    await expect(failure, `${open} open`).toContainText('incident-desk cannot open this ticket');
    await expect(failure, `${open} open`).toContainText(
      'incident-desk has lost its connection to Zendesk. An administrator must reconnect it from the incident-desk admin page.',
    );
    await expect(frame.getByTestId('not-reported')).toHaveCount(0);
  }
  await screenshotTo(page, path.join(ARTIFACTS, 'sidebar-grant-revoked.png'));
});

test('a 429 with Retry-After 45 from the incident service: told at once, with when to retry', async ({
  page,
}) => {
  const threat = 'https://rate-limited-45.states.example/login';
  const incident = await seedIncident({
    incidentType: 'url',
    subject: threat,
    status: 'case_building',
  });
  const ticketId = await createTicket('Sidebar state rate limited 45 s', threat);
  await setIncidentId(ticketId, incident.id);
  const fault = await injectFault({
    method: 'GET',
    path: '/v1/incident/:id',
    kind: 'rate_limit',
    retryAfterSeconds: 45,
  });
  try {
    await page.goto(`/agent/tickets/${ticketId}`);
    const frame = page.frameLocator(SIDEBAR);
    const unavailable = frame.getByTestId('incident-unavailable');
    // answered with the wait, not after it: neither the connector nor the sidebar waits the 45 s
    // out (the expectation gives up well before)
    await expect(unavailable).toContainText(
      'The incident service is limiting requests; it will be retried in 45 seconds.',
    );
    // what the agent works with stays on screen beside the cause
    await expect(frame.getByTestId('incident-id')).toBeVisible();
    await expect(frame.getByTestId('subject')).toContainText('states[.]example');
    await screenshotTo(page, path.join(ARTIFACTS, 'sidebar-rate-limited-45s.png'));
  } finally {
    await clearFault(fault.id);
  }
});

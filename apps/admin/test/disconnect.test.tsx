// Disconnect on the admin page in jsdom against a stubbed /admin/api: a confirmation dialog first
// (nothing is sent on Cancel), the ticket-field choice sent as chosen, the result listed with what
// is left to remove by hand; the way through Zendesk when the removal must be authorised, and back;
// a disconnected account's notice; the queue-views setting.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeProvider } from '@zendeskgarden/react-theming';
import type { DisconnectResult } from '@incident-desk/admin-contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Overview } from '../src/api';
import { App } from '../src/App';
import { Settings } from '../src/sections/Settings';
import { stubFetch } from './fetch-stub';
import { NEW_ACCOUNT, overviewOf } from './fixtures';

const SESSION = {
  subdomain: 'acme',
  userName: 'Ada Admin',
  expiresAt: '2026-11-24T00:00:00.000Z',
  csrfToken: 'csrf-1',
};

const RESULT: DisconnectResult = {
  ok: false,
  finishedAt: '2026-11-26T12:00:00.000Z',
  steps: [
    { item: 'view', target: 'Takedowns waiting for approval', outcome: 'removed' },
    { item: 'trigger', target: 'incident-desk: Report threat', outcome: 'removed' },
    {
      item: 'zendesk_webhook',
      target: 'incident-desk connector (a1)',
      outcome: 'failed',
      message: 'Zendesk answered 500',
    },
    {
      item: 'ticket_field',
      target: 'Threat URL',
      outcome: 'kept',
      message: '3 ticket(s) hold a value in it',
    },
    {
      item: 'account_data',
      target: 'the connector’s records of this account',
      outcome: 'removed',
    },
  ],
};

function pageRoutes(overview: Overview, extra: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    'GET /session': { body: SESSION },
    'GET /first-run': { body: { ...NEW_ACCOUNT, complete: true } },
    'GET /overview': { body: overview },
    'GET /dead-letters': { body: { syncFailures: [], failedForwards: [], failedJobs: [] } },
    'GET /reconciliation': { body: { entries: [] } },
    ...extra,
  });
}

const renderPage = () =>
  render(
    <ThemeProvider>
      <App />
    </ThemeProvider>,
  );

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('disconnect', () => {
  it('asks first: Cancel sends nothing', async () => {
    const calls = pageRoutes(overviewOf());
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Disconnect…' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Disconnect incident-desk from acme?',
    });
    expect(within(dialog).getByText(/the incident-desk triggers and the webhook/)).toBeTruthy();
    expect(within(dialog).getByText(/deleted only when no ticket holds a value/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.route === 'POST /disconnect')).toBe(false);
  });

  it('sends the ticket-field choice and lists what was removed, kept and left to remove by hand', async () => {
    const calls = pageRoutes(overviewOf(), { 'POST /disconnect': { body: RESULT } });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Disconnect…' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(
      within(dialog).getByRole('checkbox', {
        name: 'Delete the ticket fields even when tickets use them',
      }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));

    const region = await screen.findByRole('region', {
      name: 'incident-desk is disconnected from acme',
    });
    expect(calls.find((c) => c.route === 'POST /disconnect')?.body).toEqual({
      deleteTicketFields: true,
    });
    const lines = [...region.querySelectorAll('#disconnect-result li')].map((li) => [
      li.getAttribute('data-outcome'),
      li.textContent,
    ]);
    expect(lines).toEqual([
      ['removed', 'View Takedowns waiting for approval — removed'],
      ['removed', 'Trigger incident-desk: Report threat — removed'],
      [
        'failed',
        'Zendesk webhook incident-desk connector (a1) — not removed: remove it by hand (Zendesk answered 500)',
      ],
      ['kept', 'Ticket field Threat URL — kept (3 ticket(s) hold a value in it)'],
      ['removed', 'Stored data the connector’s records of this account — removed'],
    ]);
    expect(within(region).getByRole('alert').textContent).toContain('Remove the 1 marked below');
    expect(within(region).getByRole('link', { name: 'Install incident-desk again' })).toBeTruthy();
    // the account's page is gone with it
    expect(screen.queryByRole('button', { name: 'Disconnect…' })).toBeNull();
  });

  it('sends the admin to Zendesk when the removal must be authorised, and nothing is posted', async () => {
    const calls = pageRoutes({ ...overviewOf(), disconnect: { canRemoveNow: false } });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Disconnect…' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Zendesk must allow the removal first/)).toBeTruthy();
    // the dialog's action is a danger button, not a plain link
    const action = within(dialog).getByRole('button', { name: 'Authorise with Zendesk' });
    expect(action.id).toBe('disconnect-authorize');
    expect(within(dialog).queryByRole('link', { name: 'Authorise with Zendesk' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Disconnect' })).toBeNull();
    expect(calls.some((c) => c.route === 'POST /disconnect')).toBe(false);
  });

  it('turns to the authorisation when the connector answers that it is needed after all', async () => {
    pageRoutes(overviewOf(), {
      'POST /disconnect': {
        status: 409,
        body: {
          error: { code: 'authorization_needed', message: 'authorise it with Zendesk' },
          authorizeUrl: '/admin/disconnect/authorize',
        },
      },
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Disconnect…' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    expect(
      await within(dialog).findByRole('button', { name: 'Authorise with Zendesk' }),
    ).toBeTruthy();
    expect(within(dialog).getByRole('alert').textContent).toBe('authorise it with Zendesk');
  });

  it('opens the dialog again on coming back from Zendesk, to confirm', async () => {
    window.history.replaceState(null, '', '/admin/?disconnect=authorized');
    pageRoutes(overviewOf());
    renderPage();
    const dialog = await screen.findByRole('dialog', {
      name: 'Disconnect incident-desk from acme?',
    });
    expect(within(dialog).getByRole('button', { name: 'Disconnect' })).toBeTruthy();
    expect(window.location.search).toBe('');
  });

  it('says why a disconnected account has stopped and since when', async () => {
    pageRoutes({
      ...overviewOf(),
      disconnection: {
        reason: 'app_uninstalled',
        since: '2026-11-26T09:30:00.000Z',
        detail: 'app 42 no longer among the account’s installations',
      },
    });
    renderPage();
    const notice = await screen.findByText('The incident-desk app was uninstalled from Zendesk');
    const alert = notice.closest('[role="alert"]')!;
    expect(alert.textContent).toContain('has stopped working for this account');
    expect(alert.textContent).toContain('app 42 no longer among');
    expect(alert.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-26T09:30:00.000Z');
    expect(
      within(alert as HTMLElement)
        .getByRole('link', { name: 'Authorise incident-desk with Zendesk again' })
        .getAttribute('href'),
    ).toBe('/install?subdomain=acme');
  });
});

describe('queue views setting', () => {
  it('is on by default and saved off when the admin turns it off', async () => {
    const calls = stubFetch({
      'GET /zendesk-groups': { body: { groups: [] } },
      'PUT /settings': { body: {} },
    });
    render(
      <ThemeProvider>
        <Settings overview={overviewOf()} refresh={() => undefined} showIncidentForm={false} />
      </ThemeProvider>,
    );
    const toggle = await screen.findByRole('switch', { name: /Queue views in Zendesk/ });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    const user = userEvent.setup();
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() =>
      expect(calls.find((c) => c.route === 'PUT /settings')?.body).toMatchObject({
        createZendeskViews: false,
      }),
    );
  });
});

// Settings in jsdom against a stubbed /admin/api: the group for new tickets picked by name from
// the account's Zendesk groups, or typed as an id (with Zendesk's reason) when they cannot be
// listed; a bad id refused beside its field.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeProvider } from '@zendeskgarden/react-theming';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Settings } from '../src/sections/Settings';
import { stubFetch } from './fetch-stub';
import { overviewOf } from './fixtures';

afterEach(() => {
  vi.unstubAllGlobals();
});

const renderSettings = () =>
  render(
    <ThemeProvider>
      <Settings overview={overviewOf()} refresh={() => undefined} showIncidentForm={false} />
    </ThemeProvider>,
  );

describe('group for new tickets', () => {
  it('is picked by name from the groups Zendesk lists, and saved as its id', async () => {
    const calls = stubFetch({
      'GET /zendesk-groups': {
        body: {
          groups: [
            { id: 360001, name: 'Abuse desk' },
            { id: 360002, name: 'Support' },
          ],
        },
      },
      'PUT /settings': { body: {} },
    });
    renderSettings();
    const select = (await screen.findByRole('combobox', {
      name: 'Group for new tickets',
    })) as HTMLSelectElement;
    expect([...select.options].map((option) => option.text)).toEqual([
      "The account's default group",
      'Abuse desk',
      'Support',
    ]);
    const user = userEvent.setup();
    await user.selectOptions(select, 'Abuse desk');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() =>
      expect(calls.find((c) => c.route === 'PUT /settings')?.body).toMatchObject({
        newTicketGroupId: 360001,
      }),
    );
    expect(await screen.findByText('Settings saved.')).toBeTruthy();
  });

  it('falls back to an id field with Zendesk’s reason, and refuses a non-number beside it', async () => {
    const calls = stubFetch({
      'GET /zendesk-groups': {
        status: 409,
        body: {
          error: {
            code: 'groups_not_readable',
            message:
              'Zendesk does not let incident-desk read the groups; enter the group id instead.',
          },
        },
      },
    });
    renderSettings();
    expect(await screen.findByText(/does not let incident-desk read the groups/)).toBeTruthy();
    const input = screen.getByRole('textbox', { name: 'Group for new tickets' });
    const user = userEvent.setup();
    await user.type(input, 'support');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(screen.getByText(/A group id is a number/).id).toBe('group-error');
    expect(calls.some((c) => c.route === 'PUT /settings')).toBe(false);
  });
});

describe('group for new tickets when Zendesk refuses the token', () => {
  it('says to reconnect Zendesk, never the API’s raw text', async () => {
    stubFetch({
      'GET /zendesk-groups': {
        status: 409,
        body: {
          error: {
            code: 'reauthorization_required',
            message:
              'account fe5d788c-0000-4000-8000-000000000000 cannot act: reauthorization required',
          },
        },
      },
    });
    renderSettings();
    expect(await screen.findByText(/Reconnect Zendesk to choose a group/)).toBeTruthy();
    expect(document.body.textContent).not.toContain('fe5d788c');
    expect(document.body.textContent).not.toContain('cannot act');
  });
});

describe('reconciliation queue', () => {
  it('links each ticket to Zendesk, explains Link and Retry, and keeps a retried ticket with its progress', async () => {
    const { Reconciliation } = await import('../src/sections/Reconciliation');
    stubFetch({
      'POST /reconciliation/77/retry': { body: { status: 200, message: 'report queued' } },
    });
    const entry = {
      ticketId: 77,
      ticketUrl: 'https://acme.zendesk.com/agent/tickets/77',
      reason: 'duplicate',
      detail: null,
      createdAt: '2026-11-23T10:00:00.000Z',
    };
    const refresh = vi.fn();
    const { rerender } = render(
      <ThemeProvider>
        <Reconciliation entries={[entry]} refresh={refresh} />
      </ThemeProvider>,
    );
    const row = screen.getByTestId('reconciliation-entry');
    expect(row.querySelector('a')?.getAttribute('href')).toBe(entry.ticketUrl);
    expect(row.textContent).toContain('Retry reports the ticket again');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(refresh).toHaveBeenCalled());
    rerender(
      <ThemeProvider>
        <Reconciliation entries={[]} refresh={refresh} />
      </ThemeProvider>,
    );
    const done = screen.getByTestId('reconciliation-done');
    expect(done.textContent).toContain('Ticket #77');
    expect(done.textContent).toContain('report queued: the worker reports it again');
  });
});

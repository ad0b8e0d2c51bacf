// The admin page's first run in jsdom against a stubbed /admin/api: the checklist of a new account
// at the top, the incident key refused beside its field, the sign-in taking a pasted address, and
// failed syncs readable with their links and retry progress.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeProvider } from '@zendeskgarden/react-theming';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../src/App';
import { DeadLetters } from '../src/sections/DeadLetters';
import { SignIn } from '../src/SignIn';
import { subdomainFromInput } from '@incident-desk/zendesk-api/subdomain';
import { stubFetch } from './fetch-stub';
import { LETTERS, NEW_ACCOUNT, overviewOf } from './fixtures';

const themed = (node: ReactNode) => render(<ThemeProvider>{node}</ThemeProvider>);
const SESSION = {
  subdomain: 'acme',
  userName: 'Ada Admin',
  expiresAt: '2026-11-24T00:00:00.000Z',
  csrfToken: 'csrf-1',
};

function newAccountRoutes(extra: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    'GET /session': { body: SESSION },
    'GET /first-run': { body: NEW_ACCOUNT },
    'GET /overview': { body: overviewOf() },
    'GET /dead-letters': { body: { syncFailures: [], failedForwards: [], failedJobs: [] } },
    'GET /reconciliation': { body: { entries: [] } },
    ...extra,
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('first-run checklist', () => {
  it('comes first for a new account, each step with its state and what to do next', async () => {
    newAccountRoutes();
    themed(<App />);
    const checklist = await screen.findByRole('region', { name: 'Get started' });
    expect(document.querySelector('main section')).toBe(checklist);
    expect(within(checklist).getByText('1 of 5 steps done.')).toBeTruthy();
    const key = screen.getByTestId('step-incident_key');
    expect(key.getAttribute('data-state')).toBe('todo');
    // the key form sits in its step, not at the bottom of the page
    expect(within(key).getByLabelText('Incident API key')).toBeTruthy();
    expect(
      within(screen.getByTestId('step-setup')).getByRole('button', { name: 'Run setup' }),
    ).toBeTruthy();
    expect(
      within(screen.getByTestId('step-webhooks')).getByRole('button', {
        name: 'Send a test delivery',
      }),
    ).toBeTruthy();
    expect(screen.getByTestId('next-sidebar').textContent).toContain('open any ticket');
    expect(screen.getByTestId('step-zendesk').getAttribute('data-state')).toBe('done');
    // the settings section does not show a second key form meanwhile
    expect(screen.getAllByLabelText('Incident API key')).toHaveLength(1);
  });

  it('a refused key is shown beside the API key field, with the connector’s words', async () => {
    const calls = newAccountRoutes({
      'PUT /incident-connection': {
        status: 422,
        body: {
          error: {
            code: 'api_key_refused',
            message: 'The incident service refused this API key. Nothing was saved.',
          },
        },
      },
    });
    themed(<App />);
    const key = await screen.findByTestId('step-incident_key');
    const user = userEvent.setup();
    await user.type(within(key).getByLabelText('Incident API key'), 'wrong-key');
    await user.type(within(key).getByLabelText('Client id'), 'cl_demo_parent');
    await user.click(within(key).getByRole('button', { name: 'Save incident service' }));
    const error = await within(key).findByText(/refused this API key/);
    expect(error.id).toBe('apiKey-error');
    expect(calls.find((c) => c.route === 'PUT /incident-connection')?.body).toEqual({
      apiKey: 'wrong-key',
      clientId: 'cl_demo_parent',
      subClientIds: [],
    });
  });

  it('empty fields are refused beside each field without a call', async () => {
    const calls = newAccountRoutes();
    themed(<App />);
    const key = await screen.findByTestId('step-incident_key');
    await userEvent
      .setup()
      .click(within(key).getByRole('button', { name: 'Save incident service' }));
    expect(within(key).getByText('Enter the API key.').id).toBe('apiKey-error');
    expect(within(key).getByText(/Enter the client id/).id).toBe('clientId-error');
    expect(calls.some((c) => c.route === 'PUT /incident-connection')).toBe(false);
  });

  it('a saved key names its client, and says that setup is starting (the save queued it)', async () => {
    newAccountRoutes({
      'PUT /incident-connection': {
        body: {
          apiKey: 'set',
          clientId: 'cl_demo_parent',
          clientName: 'Demo Parent',
          setup: { state: 'queued' },
        },
      },
    });
    themed(<App />);
    const key = await screen.findByTestId('step-incident_key');
    const user = userEvent.setup();
    await user.type(within(key).getByLabelText('Incident API key'), 'good-key');
    await user.type(within(key).getByLabelText('Client id'), 'cl_demo_parent');
    await user.click(within(key).getByRole('button', { name: 'Save incident service' }));
    expect(
      (await screen.findByText(/the key works for Demo Parent \(cl_demo_parent\)/)).textContent,
    ).toMatch(/Setup is starting\.$/);
  });

  it('is not shown once every step is done', async () => {
    newAccountRoutes({
      'GET /first-run': {
        body: {
          ...NEW_ACCOUNT,
          complete: true,
          steps: NEW_ACCOUNT.steps.map((s) => ({ ...s, state: 'done', next: null, action: null })),
        },
      },
    });
    themed(<App />);
    await screen.findByRole('region', { name: 'Settings' });
    expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull();
  });
});

describe('sign-in subdomain', () => {
  it('reads a pasted Zendesk address as its subdomain', () => {
    expect(subdomainFromInput('https://acme.zendesk.com/agent')).toBe('acme');
    expect(subdomainFromInput(' Acme ')).toBe('acme');
    expect(subdomainFromInput('https://acme.zendesk.com.evil.example')).toBeNull();
    expect(subdomainFromInput('a_b')).toBeNull();
  });

  it('navigates with the subdomain; refuses another address beside the field, keeping the input', async () => {
    const navigate = vi.fn();
    themed(<SignIn navigate={navigate} />);
    const input = screen.getByLabelText('Zendesk subdomain') as HTMLInputElement;
    expect(input.hasAttribute('pattern')).toBe(false);
    const user = userEvent.setup();
    await user.type(input, 'https://acme.example.com');
    await user.click(screen.getByRole('button', { name: 'Sign in with Zendesk' }));
    expect(screen.getByText(/not a Zendesk subdomain/).id).toBe('subdomain-error');
    expect(input.value).toBe('https://acme.example.com');
    expect(navigate).not.toHaveBeenCalled();
    await user.clear(input);
    await user.type(input, 'https://acme.zendesk.com/agent');
    await user.click(screen.getByRole('button', { name: 'Sign in with Zendesk' }));
    expect(navigate).toHaveBeenCalledWith('/admin/sign-in?subdomain=acme');
  });
});

describe('failed syncs', () => {
  it('show the ticket linked, the incident, what failed, why and what Retry does', () => {
    stubFetch({});
    themed(<DeadLetters letters={LETTERS} refresh={() => undefined} />);
    const forward = screen.getByTestId('failed-forward');
    const link = within(forward).getByRole('link', { name: /Ticket #41/ });
    expect(link.getAttribute('href')).toBe('https://acme.zendesk.com/agent/tickets/41');
    expect(
      within(forward)
        .getByRole('link', { name: /Incident inc_forward/ })
        .getAttribute('href'),
    ).toBe('http://incident.test/_sandbox/incidents/inc_forward');
    // without a console address the incident is named, not linked
    // named as the ticket's Incident ID field names it, never by the service's 24-hex id
    expect(screen.getByTestId('sync-failure').textContent).toContain('Incident inc_x');
    expect(screen.getByTestId('sync-failure').textContent).not.toContain('65f1c0ffee');
    expect(forward.textContent).toContain('Forwarding a comment');
    expect(forward.textContent).toContain('The incident service had an internal error (HTTP 500).');
    expect(forward.textContent).toContain('Retry forwards this comment again');
    // a change Zendesk refused for good has no Retry, and says why
    const write = screen.getByTestId('sync-failure');
    expect(within(write).queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(write.textContent).toContain('cannot be retried');
  });

  it('a retried item stays on the page with its progress', async () => {
    const calls = stubFetch({
      'POST /dead-letters/comment-forwards/777001/retry': {
        status: 202,
        body: { message: 'forward queued again' },
      },
    });
    const refresh = vi.fn();
    const { rerender } = themed(<DeadLetters letters={LETTERS} refresh={refresh} />);
    await userEvent
      .setup()
      .click(within(screen.getByTestId('failed-forward')).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(refresh).toHaveBeenCalled());
    expect(calls.map((c) => c.route)).toContain('POST /dead-letters/comment-forwards/777001/retry');
    // the reload no longer lists it: it stays as "queued again"
    rerender(
      <ThemeProvider>
        <DeadLetters letters={{ ...LETTERS, failedForwards: [] }} refresh={refresh} />
      </ThemeProvider>,
    );
    const retried = screen.getByTestId('retried');
    expect(retried.textContent).toContain('Queued again');
    expect(retried.textContent).toContain('Comment forward of ticket #41');
  });
});

import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderSidebar, clientServing } from './render';
import { linkedView, ticketOnlyView } from './fixtures';
import { setConnectorTransportFactory } from '../src/app/api/transport';
import { zafTransport } from './zafTransport';
import { createFakeZafClient } from './fakeZafClient';

describe('sidebar states', () => {
  it('shows a loading skeleton while the connector has not answered, never a blank panel', async () => {
    const client = createFakeZafClient({ handler: () => 'hang' });
    renderSidebar(client);
    const skeleton = await screen.findByTestId('loading-skeleton');
    expect(skeleton.getAttribute('aria-busy')).toBe('true');
    await waitFor(() => expect(client.requests).toHaveLength(1));
    expect(screen.getByTestId('loading-skeleton')).toBeTruthy();
  });

  it('shows a network error with a retry that loads the view', async () => {
    let fail = true;
    const client = createFakeZafClient({
      handler: () => (fail ? 'network' : { status: 200, body: linkedView() }),
    });
    renderSidebar(client);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The connector could not be reached');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('state-linked')).toBeTruthy();
    expect(client.requests).toHaveLength(2);
  });

  it('explains an authentication failure (401) with a retry', async () => {
    renderSidebar(
      createFakeZafClient({
        handler: () => ({ status: 401, body: { error: { code: 'invalid_token' } } }),
      }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('session is no longer valid');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('refuses a body that is not a sidebar view', async () => {
    renderSidebar(
      createFakeZafClient({ handler: () => ({ status: 200, body: { hello: 'world' } }) }),
    );
    expect((await screen.findByRole('alert')).textContent).toContain('could not read');
  });

  it('renders a linked ticket with its status card, and no sync alert while all is in sync', async () => {
    renderSidebar(clientServing(linkedView()));
    expect(await screen.findByTestId('state-linked')).toBeTruthy();
    expect(screen.getByTestId('status-card')).toBeTruthy();
    expect(screen.queryByTestId('sync')).toBeNull();
    expect(screen.queryByText('Everything is in sync.')).toBeNull();
  });

  it('says when incident updates wait for the ticket longer than the writer paces them, never for a short wait', async () => {
    const waiting = (ageMs: number) =>
      linkedView({
        sync: {
          ...linkedView().sync,
          waitingTicketUpdates: 3,
          waitingSince: new Date(Date.now() - ageMs).toISOString(),
        },
      });
    const first = renderSidebar(clientServing(waiting(30_000)));
    expect(await screen.findByTestId('state-linked')).toBeTruthy();
    expect(screen.queryByTestId('sync')).toBeNull();
    first.unmount();

    renderSidebar(clientServing(waiting(5 * 60_000)));
    const alert = await screen.findByTestId('sync');
    expect(alert.textContent).toContain('Ticket updates are late');
    expect(within(alert).getByTestId('sync-late').textContent).toContain(
      '3 incident updates have been waiting to be written to this ticket since',
    );
    expect(alert.textContent).toContain('Nothing is lost');
  });

  it('offers to report an unlinked ticket from its Threat field, for takedown or monitoring', async () => {
    const client = clientServing(ticketOnlyView('unlinked'));
    renderSidebar(client);
    const panel = await screen.findByTestId('not-reported');
    expect(panel.textContent).toContain('hxxp[:]//evil[.]example/login');
    // the duplicate check could not answer here: reporting stays possible, knowing that
    fireEvent.click(await within(panel).findByRole('button', { name: 'Report for monitoring' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('could not be checked');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Report' }));
    await waitFor(() => expect(client.requests.some((r) => r.type === 'POST')).toBe(true));
    const post = client.requests.find((r) => r.type === 'POST')!;
    expect(new URL(post.url).pathname).toBe('/sidebar/tickets/42/threats/report');
    expect(JSON.parse(post.data!)).toEqual({ value: 'http://evil.example/login', mode: 'monitor' });
    expect(
      await screen.findByText(
        'Reported with a request for monitoring. The incident will appear here shortly.',
      ),
    ).toBeTruthy();
    // the view is read again (the threats list and its duplicate check are GETs of their own)
    const viewReads = () =>
      client.requests.filter(
        (r) => r.type === 'GET' && new URL(r.url).pathname === '/sidebar/tickets/42',
      );
    await waitFor(() => expect(viewReads()).toHaveLength(2));
  });

  it('shows why an incident_unlinked ticket failed to link and retries linking', async () => {
    const client = clientServing(
      ticketOnlyView('failed', {
        unlinkedReason: 'The incident service answered 409 without an id.',
      }),
      {
        '/retry-link': { status: 503, body: {} },
      },
    );
    renderSidebar(client);
    const panel = await screen.findByTestId('link-failed');
    expect(within(panel).getByTestId('unlinked-reason').textContent).toBe(
      'The incident service answered 409 without an id.',
    );
    fireEvent.click(within(panel).getByRole('button', { name: 'Retry linking' }));
    expect((await within(panel).findByRole('alert')).textContent).toContain(
      'unavailable right now',
    );
    expect(new URL(client.requests.at(-1)!.url).pathname).toBe('/sidebar/tickets/42/retry-link');
  });

  it('explains a ticket without any threat', async () => {
    renderSidebar(clientServing(ticketOnlyView('none')));
    expect((await screen.findByTestId('no-threat')).textContent).toContain(
      'Fill in the Threat URL field',
    );
  });

  it('puts a failed report forward above the not-reported card, never below it', async () => {
    const view = {
      ...ticketOnlyView('unlinked'),
      sync: {
        lastEventAppliedAt: null,
        pendingForwards: 0,
        waitingTicketUpdates: 0,
        waitingSince: null,
        writesPausedUntil: null,
        failedForwards: [
          {
            id: 'fw_1',
            kind: 'report',
            failedAt: '2026-11-03T09:00:00.000Z',
            attempts: 5,
            lastError: 'HTTP 500',
          },
        ],
      },
    };
    renderSidebar(clientServing(view));
    const card = await screen.findByTestId('not-reported');
    const sync = screen.getByTestId('sync');
    expect(sync.textContent).toContain('Changes are not in sync');
    expect(sync.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says the app could not be verified when the page holds no session, without calling anything', async () => {
    const client = createFakeZafClient({});
    setConnectorTransportFactory(() => null);
    try {
      renderSidebar(client);
      expect((await screen.findByTestId('not-configured')).textContent).toContain('signed request');
      expect(client.requests).toHaveLength(0);
    } finally {
      setConnectorTransportFactory(zafTransport);
    }
  });

  it('says what the connector said when it could not open the page: a revoked Zendesk grant, Zendesk away', async () => {
    const client = createFakeZafClient({});
    setConnectorTransportFactory(() => null);
    try {
      document.head.insertAdjacentHTML(
        'beforeend',
        '<script type="application/json" id="incident-desk-page-error">{"code":"reauthorization_required"}</script>',
      );
      const { unmount } = renderSidebar(client);
      const panel = await screen.findByTestId('page-failure');
      expect(panel.textContent).toContain('An administrator must reconnect it');
      expect(panel.textContent).not.toContain('{');
      expect(client.requests).toHaveLength(0);
      unmount();
      document.getElementById('incident-desk-page-error')!.textContent =
        '{"code":"zendesk_unavailable"}';
      renderSidebar(client);
      expect((await screen.findByTestId('page-failure')).textContent).toContain(
        'Reload the ticket in a minute',
      );
    } finally {
      document.getElementById('incident-desk-page-error')?.remove();
      setConnectorTransportFactory(zafTransport);
    }
  });

  it('asks to save a new ticket first, without calling the connector', async () => {
    const client = createFakeZafClient({ ticketId: null });
    renderSidebar(client);
    expect((await screen.findByTestId('new-ticket')).textContent).toContain('Save the ticket');
    expect(client.requests).toHaveLength(0);
  });

  it('waits for no save event on a new ticket: ticket.saved never reaches a sidebar', async () => {
    const client = createFakeZafClient({ ticketId: null });
    renderSidebar(client);
    await screen.findByTestId('new-ticket');
    expect(client.listenerCount('ticket.saved')).toBe(0);
  });

  it('says the account is not set up when the connector answers 412', async () => {
    renderSidebar(
      createFakeZafClient({
        handler: () => ({ status: 412, body: { error: { code: 'not_configured' } } }),
      }),
    );
    const panel = await screen.findByTestId('not-configured');
    expect(panel.textContent).toContain('finish setup');
    expect(within(panel).getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('keeps the last view on screen when a refresh fails, with a retry', async () => {
    let fail = false;
    const client = createFakeZafClient({
      handler: () => (fail ? { status: 503, body: {} } : { status: 200, body: linkedView() }),
    });
    renderSidebar(client);
    await screen.findByTestId('state-linked');
    fail = true;
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('showing the last details received');
    expect(screen.getByTestId('status-card')).toBeTruthy();
    expect(screen.queryByTestId('loading-skeleton')).toBeNull();
  });
});

// Start-up before React: the entry's boot code asks Zendesk and the connector while the UI chunk
// loads, and the providers reuse those answers instead of asking again.
import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { ThemeProvider } from '@zendeskgarden/react-theming';
import { App } from '../src/app/App';
import { startLoading } from '../src/app/boot';
import { createConnectorApi } from '../src/app/api/connector';
import {
  clearPrefetchedView,
  prefetchTicketView,
  withPrefetchedView,
} from '../src/app/api/prefetchedView';
import { ClientProvider } from '../src/app/contexts/ClientProvider';
import { TranslationProvider } from '../src/app/contexts/TranslationProvider';
import type { ZafClient } from '../src/app/zaf/zafClient';
import { clientServing, renderSidebar } from './render';
import { zafTransport } from './zafTransport';
import { setConnectorTransportFactory } from '../src/app/api/transport';
import { detailedIncident, linkedView } from './fixtures';

const gets = (client: { requests: { type: string }[] }) =>
  client.requests.filter((r) => r.type === 'GET').length;

function renderWithBootedClient(client: ZafClient) {
  return render(
    <ThemeProvider>
      <ClientProvider init={() => client} registrationTimeoutMs={500}>
        <TranslationProvider>
          <App refreshIntervalMs={0} />
        </TranslationProvider>
      </ClientProvider>
    </ThemeProvider>,
  );
}

afterEach(() => clearPrefetchedView());

describe('start-up before React mounts', () => {
  it('sends the one ZAF get and the view request before any component renders', async () => {
    const client = clientServing(linkedView(), {}, { manualRegistration: true });
    expect(startLoading(() => client)).toBe(client);
    // the get is asked at once (the SDK holds it until Zendesk registers the app)
    expect(client.getCalls).toHaveLength(1);
    expect(gets(client)).toBe(0);
    act(() => client.register());
    await waitFor(() => expect(gets(client)).toBe(1));
    expect(client.requests[0]!.url).toBe('https://connector.example.test/sidebar/tickets/42');
  });

  it('the mounted app shows the prefetched view without asking ZAF or the connector again', async () => {
    const client = clientServing(linkedView());
    startLoading(() => client);
    await waitFor(() => expect(gets(client)).toBe(1));
    renderWithBootedClient(client);
    await screen.findByTestId('state-linked');
    expect(screen.getByTestId('overview')).toBeTruthy();
    expect(gets(client)).toBe(1);
    expect(client.getCalls).toHaveLength(1);
  });

  it('uses the prefetched answer once: a refresh asks the connector again', async () => {
    let status = 'approval_required';
    const client = clientServing(() => linkedView({ incident: detailedIncident({ status }) }));
    startLoading(() => client);
    await waitFor(() => expect(gets(client)).toBe(1));
    status = 'takedown_ready';
    renderWithBootedClient(client);
    await screen.findByTestId('state-linked');
    // the prefetched answer was taken before the status changed
    expect(screen.getByTestId('status').textContent).toContain('Approval required');
    act(() => screen.getByRole('button', { name: 'Refresh' }).click());
    await waitFor(() =>
      expect(screen.getByTestId('status').textContent).toContain('Takedown ready'),
    );
    expect(gets(client)).toBe(2);
  });

  it('a failed prefetch shows the error with a retry that asks again', async () => {
    let fail = true;
    const client = clientServing(linkedView());
    client.setHandler(() => (fail ? 'network' : { status: 200, body: linkedView() }));
    startLoading(() => client);
    await waitFor(() => expect(gets(client)).toBe(1));
    renderWithBootedClient(client);
    const retry = await screen.findByRole('button', { name: 'Retry' });
    fail = false;
    act(() => retry.click());
    await screen.findByTestId('state-linked');
    expect(gets(client)).toBe(2);
  });

  it('makes no connector request when the page holds no session', async () => {
    const client = clientServing(linkedView());
    setConnectorTransportFactory(() => null);
    try {
      startLoading(() => client);
      renderWithBootedClient(client);
      await screen.findByTestId('not-configured');
      expect(gets(client)).toBe(0);
    } finally {
      setConnectorTransportFactory(zafTransport);
    }
  });

  it('outside Zendesk it returns false and asks nothing', () => {
    expect(startLoading(() => false)).toBe(false);
  });

  it('without the boot code the app asks for the view itself', async () => {
    const client = clientServing(linkedView());
    renderSidebar(client);
    await screen.findByTestId('state-linked');
    expect(gets(client)).toBe(1);
  });
});

describe('withPrefetchedView', () => {
  it('answers only the same client and ticket, and only once', async () => {
    const client = clientServing(linkedView());
    prefetchTicketView(client, 42);
    expect(gets(client)).toBe(1);
    const api = withPrefetchedView(createConnectorApi(zafTransport(client)), client);
    await api.getTicketView(43);
    expect(gets(client)).toBe(2); // another ticket
    const first = await api.getTicketView(42);
    expect(first.ok).toBe(true);
    expect(gets(client)).toBe(2); // the prefetched request
    await api.getTicketView(42);
    expect(gets(client)).toBe(3); // used once
  });

  it('ignores a prefetch made through another client', async () => {
    const first = clientServing(linkedView());
    const second = clientServing(linkedView());
    prefetchTicketView(first, 42);
    const api = withPrefetchedView(createConnectorApi(zafTransport(second)), second);
    await api.getTicketView(42);
    expect(gets(second)).toBe(1);
  });
});

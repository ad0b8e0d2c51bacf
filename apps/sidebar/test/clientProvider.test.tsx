import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { ThemeProvider } from '@zendeskgarden/react-theming';
import { ClientProvider } from '../src/app/contexts/ClientProvider';
import { useClient } from '../src/app/hooks/useClient';
import { createFakeZafClient } from './fakeZafClient';
import { linkedView } from './fixtures';
import { App } from '../src/app/App';
import { TranslationProvider } from '../src/app/contexts/TranslationProvider';

function Probe() {
  useClient();
  return <p>registered</p>;
}

describe('ClientProvider', () => {
  it('shows a clear message when opened outside Zendesk (ZAFClient.init returns false)', async () => {
    const init = vi.fn(() => false as const);
    render(
      <ThemeProvider>
        <ClientProvider init={init}>
          <Probe />
        </ClientProvider>
      </ThemeProvider>,
    );
    expect((await screen.findByTestId('outside-zendesk')).textContent).toContain(
      'Open this app in Zendesk',
    );
    expect(screen.queryByText('registered')).toBeNull();
    expect(init).toHaveBeenCalledTimes(1);
  });

  it('renders children only after app.registered, calling init once', async () => {
    const client = createFakeZafClient({ manualRegistration: true });
    const init = vi.fn(() => client);
    const { rerender } = render(
      <ThemeProvider>
        <ClientProvider init={init}>
          <Probe />
        </ClientProvider>
      </ThemeProvider>,
    );
    expect(screen.getByTestId('loading-skeleton')).toBeTruthy();
    expect(screen.queryByText('registered')).toBeNull();
    rerender(
      <ThemeProvider>
        <ClientProvider init={init}>
          <Probe />
        </ClientProvider>
      </ThemeProvider>,
    );
    await act(async () => client.register());
    expect(await screen.findByText('registered')).toBeTruthy();
    expect(init).toHaveBeenCalledTimes(1);
  });

  it('reports a host that never registers, and recovers on retry', async () => {
    const client = createFakeZafClient({ manualRegistration: true });
    render(
      <ThemeProvider>
        <ClientProvider init={() => client} registrationTimeoutMs={50}>
          <Probe />
        </ClientProvider>
      </ThemeProvider>,
    );
    const alert = await screen.findByTestId('zendesk-unreachable');
    await act(async () => client.register());
    fireEvent.click(alert.querySelector('button')!);
    expect(await screen.findByText('registered')).toBeTruthy();
  });

  it('useClient throws outside the provider instead of returning an empty object', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const swallow = (event: ErrorEvent) => event.preventDefault();
    window.addEventListener('error', swallow);
    try {
      expect(() => render(<Probe />)).toThrow('useClient() must be used inside <ClientProvider>.');
    } finally {
      window.removeEventListener('error', swallow);
      spy.mockRestore();
    }
  });

  it('shows an unsupported location as a message, not a blank panel', async () => {
    const client = createFakeZafClient({
      location: 'nav_bar',
      handler: () => ({ status: 200, body: linkedView() }),
    });
    render(
      <ThemeProvider>
        <ClientProvider init={() => client}>
          <TranslationProvider>
            <App />
          </TranslationProvider>
        </ClientProvider>
      </ThemeProvider>,
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'does not support this location',
    );
  });
});
